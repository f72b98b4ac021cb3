package crdresource

import "github.com/hashicorp/terraform-plugin-framework/path"

// ShownPath is the part of an attribute path that Terraform can show the configuration line
// of: the resource's own attribute, with the element of it when it is a list or map.
// Terraform finds a diagnostic's source by the path's last attribute name among the resource
// body's attributes (and blocks), and does not look into object expressions, so a diagnostic
// on template.requirements[0].key lands on the `resource` line while one on template lands on
// `template = {`. The full path belongs in the detail (PlanContext.Report, ValidateConfig).
func ShownPath(p path.Path) path.Path {
	steps := p.Steps()
	if len(steps) == 0 {
		return p
	}
	name, ok := steps[0].(path.PathStepAttributeName)
	if !ok {
		return p
	}
	out := path.Root(string(name))
	if len(steps) > 1 {
		switch s := steps[1].(type) {
		case path.PathStepElementKeyInt:
			out = out.AtListIndex(int(s))
		case path.PathStepElementKeyString:
			out = out.AtMapKey(string(s))
		}
	}
	return out
}
