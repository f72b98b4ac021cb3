package instancetypes

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Before node_class took karpenter_aksnodeclass's attributes, it had two flat ones of its own.
// They still work, so that configurations written for them keep their meaning.
var aliases = []struct {
	name, replacement string
	field             []string // in the AKSNodeClass spec
	attr              schema.Attribute
}{
	{"gpu_mode", "gpu = { mode = ... }", []string{"gpu", "mode"},
		schema.StringAttribute{Optional: true, MarkdownDescription: "Deprecated: use `gpu = { mode = ... }`, as in `karpenter_aksnodeclass`.",
			DeprecationMessage: "Use gpu = { mode = ... }, as in karpenter_aksnodeclass."}},
	{"encryption_at_host", "security = { encryption_at_host = ... }", []string{"security", "encryptionAtHost"},
		schema.BoolAttribute{Optional: true, MarkdownDescription: "Deprecated: use `security = { encryption_at_host = ... }`, as in `karpenter_aksnodeclass`.",
			DeprecationMessage: "Use security = { encryption_at_host = ... }, as in karpenter_aksnodeclass."}},
}

// applyAliases writes the deprecated attributes set in node class value v into spec; false
// when one is set together with its replacement.
func applyAliases(v tftypes.Value, spec map[string]any, diags *diag.Diagnostics) bool {
	attrs := map[string]tftypes.Value{}
	if err := v.As(&attrs); err != nil {
		return true
	}
	ok := true
	for _, a := range aliases {
		av, set := attrs[a.name]
		if !set || av.IsNull() || !av.IsKnown() {
			continue
		}
		if _, both, _ := unstructured.NestedFieldNoCopy(spec, a.field...); both {
			diags.AddAttributeError(path.Root("node_class").AtName(a.name), "Conflicting node_class settings",
				fmt.Sprintf("node_class sets both %s and its replacement %s; keep only %s.", a.name, a.replacement, a.replacement))
			ok = false
			continue
		}
		var val any
		var s string
		var b bool
		if av.As(&s) == nil {
			val = s
		} else if av.As(&b) == nil {
			val = b
		}
		_ = unstructured.SetNestedField(spec, val, a.field...)
	}
	return ok
}

// withAliases adds the deprecated attributes to node_class's attributes.
func withAliases(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	for _, a := range aliases {
		attrs[a.name] = a.attr
	}
	return attrs
}
