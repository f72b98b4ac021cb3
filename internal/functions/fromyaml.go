package functions

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// FromYAML is a function that reads one manifest of a kind into that kind's resource attributes.
type FromYAML struct {
	name    string
	kind    *crdresource.Kind
	newRes  func() resource.Resource
	summary string
}

// NewFromYAML returns the constructor of a *_from_yaml function for a resource kind.
func NewFromYAML(name string, kind *crdresource.Kind, newRes func() resource.Resource) func() function.Function {
	return func() function.Function {
		return &FromYAML{name: name, kind: kind, newRes: newRes,
			summary: fmt.Sprintf("Reads a %s manifest (YAML or JSON) into the attributes of karpenter_%s", kind.GVK.Kind, kind.TypeSuffix)}
	}
}

func (f *FromYAML) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = f.name
}

func (f *FromYAML) Definition(ctx context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: f.summary,
		MarkdownDescription: fmt.Sprintf("Parses a `%s` `%s` manifest and returns an object with the writable attributes of `karpenter_%s` "+
			"(`name` and the flattened spec), validated offline by the CRD's OpenAPI and CEL rules. Use it to keep pool definitions as "+
			"YAML files that GitOps tools, the review command and Bicep's `loadYamlContent` read too. A multi-document stream is cut where kubectl "+
			"cuts it (a `---` line, also one followed by a comment), exactly as the review reads it, and the items of a `kind: List` count; "+
			"the one object of the function's kind is returned.",
			f.kind.GVK.GroupVersion(), f.kind.GVK.Kind, f.kind.TypeSuffix),
		Parameters: []function.Parameter{function.StringParameter{Name: "manifest", MarkdownDescription: "One Kubernetes manifest, e.g. `file(\"pools/general.yaml\")`."}},
		Return:     function.ObjectReturn{AttributeTypes: f.attrTypes(ctx)},
	}
}

// attrTypes are the writable attributes of the resource (not id, status, timeouts, analysis).
func (f *FromYAML) attrTypes(ctx context.Context) map[string]attr.Type {
	var resp resource.SchemaResponse
	f.newRes().Schema(ctx, resource.SchemaRequest{}, &resp)
	root := f.kind.Tree()
	out := map[string]attr.Type{}
	for _, c := range root.Children {
		if !c.Computed {
			out[c.Name] = resp.Schema.Attributes[c.Name].GetType()
		}
	}
	return out
}

// pick returns the one object of the function's kind in a (possibly multi-document) manifest,
// so that a file holding a NodePool and its AKSNodeClass can feed both functions. The stream is
// read by internal/manifest, as the review reads it: documents cut where kubectl cuts them
// (--- lines, comments after them), the items of a kind: List each an object.
func (f *FromYAML) pick(manifestText string) (map[string]any, *function.FuncError) {
	docs, probs := manifest.Read("manifest", []byte(manifestText), manifest.Options{})
	if len(probs) > 0 {
		msgs := make([]string, 0, len(probs))
		for _, p := range probs {
			msgs = append(msgs, fmt.Sprintf("line %d: %s", p.Line, p.Message))
		}
		return nil, function.NewArgumentFuncError(0, "The manifest is not valid YAML or JSON as kubectl reads it:\n"+strings.Join(msgs, "\n"))
	}
	var found []manifest.Object
	var kinds []string
	for _, o := range manifest.Objects(docs) {
		if o.GVK == f.kind.GVK {
			found = append(found, o)
		}
		kinds = append(kinds, manifest.TypeMeta(o))
	}
	switch len(found) {
	case 1:
		return found[0].Body, nil
	case 0:
		return nil, function.NewArgumentFuncError(0, fmt.Sprintf("The manifest holds no %s %s (found: %s)", f.kind.GVK.GroupVersion(), f.kind.GVK.Kind, strings.Join(kinds, ", ")))
	}
	lines := make([]string, 0, len(found))
	for _, o := range found {
		lines = append(lines, fmt.Sprintf("%q at line %d", o.Name(), o.Line))
	}
	return nil, function.NewArgumentFuncError(0, fmt.Sprintf("The manifest holds %d %s objects (%s); pass one at a time", len(found), f.kind.GVK.Kind, strings.Join(lines, ", ")))
}

func (f *FromYAML) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var manifest string
	resp.Error = function.ConcatFuncErrors(resp.Error, req.Arguments.Get(ctx, &manifest))
	if resp.Error != nil {
		return
	}
	obj, ferr := f.pick(manifest)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	v := crdvalidate.MustFor(f.kind.GVK)
	if errs := v.Validate(ctx, obj); len(errs) > 0 {
		resp.Error = function.NewArgumentFuncError(0, "The Kubernetes API server would reject this manifest:\n"+strings.Join(crdvalidate.Messages(errs), "\n"))
		return
	}
	root := f.kind.Tree()
	attrs, err := tfcrd.FromObject(root, obj, tftypes.NewValue(tfcrd.Type(root), nil), true)
	if err != nil {
		resp.Error = function.NewFuncError(err.Error())
		return
	}
	types_ := f.attrTypes(ctx)
	objType := types.ObjectType{AttrTypes: types_}
	tfAttrs := map[string]tftypes.Value{}
	for name := range types_ {
		tfAttrs[name] = attrs[name]
	}
	val, err := objType.ValueFromTerraform(ctx, tftypes.NewValue(objType.TerraformType(ctx), tfAttrs))
	if err != nil {
		resp.Error = function.NewFuncError(err.Error())
		return
	}
	resp.Error = function.ConcatFuncErrors(resp.Error, resp.Result.Set(ctx, val))
}
