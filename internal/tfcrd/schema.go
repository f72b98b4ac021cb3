package tfcrd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// Attributes returns the Terraform attributes of n's children.
func Attributes(n *crdtree.Node, k8sPrefix string) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(n.Children))
	for _, c := range n.Children {
		out[c.Name] = Attribute(c, k8sPrefix)
	}
	return out
}

// Attribute returns the Terraform schema attribute for n; k8sPrefix is the Kubernetes path of
// the parent, used in the description.
func Attribute(n *crdtree.Node, k8sPrefix string) schema.Attribute {
	k8sPath := strings.TrimPrefix(k8sPrefix+"."+strings.Join(n.Path, "."), ".")
	desc := description(n, k8sPath)
	optional := !n.Required && !n.Computed
	computed := n.Computed || n.Defaulted
	childPrefix := k8sPath
	if n.Kind == crdtree.ObjectList {
		childPrefix += "[*]"
	}
	switch n.Kind {
	case crdtree.Object:
		a := schema.SingleNestedAttribute{Attributes: Attributes(n, childPrefix), Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.Object{objectplanmodifier.RequiresReplace()}
		}
		return a
	case crdtree.ObjectList:
		a := schema.ListNestedAttribute{NestedObject: schema.NestedAttributeObject{Attributes: Attributes(n, childPrefix)}, Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.List{listplanmodifier.RequiresReplace()}
		}
		return a
	case crdtree.StringList:
		a := schema.ListAttribute{ElementType: types.StringType, Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.List{listplanmodifier.RequiresReplace()}
		}
		return a
	case crdtree.StringMap:
		a := schema.MapAttribute{ElementType: types.StringType, Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.Map{mapplanmodifier.RequiresReplace()}
		}
		return a
	case crdtree.Int64:
		a := schema.Int64Attribute{Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.Int64{int64planmodifier.RequiresReplace()}
		}
		if n.ReplaceOnPresenceChange {
			a.PlanModifiers = append(a.PlanModifiers, int64planmodifier.RequiresReplaceIf(presenceChanged,
				"Setting or unsetting it replaces the object.", "Setting or unsetting it replaces the object."))
		}
		return a
	case crdtree.Float64:
		a := schema.Float64Attribute{Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.Float64{float64planmodifier.RequiresReplace()}
		}
		return a
	case crdtree.Bool:
		a := schema.BoolAttribute{Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.Bool{boolplanmodifier.RequiresReplace()}
		}
		return a
	default:
		a := schema.StringAttribute{Required: n.Required, Optional: optional, Computed: computed, MarkdownDescription: desc}
		if n.RequiresReplace {
			a.PlanModifiers = []planmodifier.String{stringplanmodifier.RequiresReplace()}
		}
		return a
	}
}

// description is the CRD's own documentation of the field plus the facts a Terraform user
// needs: which Kubernetes field it sets, allowed values, default, and immutability.
func description(n *crdtree.Node, k8sPath string) string {
	var b strings.Builder
	if n.Schema != nil && n.Schema.Description != "" {
		// One paragraph: the docs render each attribute as a list item.
		d := strings.Join(strings.Fields(n.Schema.Description), " ")
		b.WriteString(strings.TrimSuffix(d, "."))
		b.WriteString(". ")
	}
	fmt.Fprintf(&b, "Sets `%s`.", k8sPath)
	if n.Schema != nil {
		if len(n.Schema.Enum) > 0 {
			vals := make([]string, 0, len(n.Schema.Enum))
			for _, e := range n.Schema.Enum {
				vals = append(vals, "`"+strings.Trim(string(e.Raw), `"`)+"`")
			}
			fmt.Fprintf(&b, " One of %s.", strings.Join(vals, ", "))
		}
		if n.Schema.Default != nil && !n.Computed {
			var v any
			if json.Unmarshal(n.Schema.Default.Raw, &v) == nil {
				d, _ := json.Marshal(v)
				fmt.Fprintf(&b, " Defaults to `%s` as the API server does.", strings.Trim(string(d), `"`))
			}
		}
	}
	if n.RequiresReplace {
		b.WriteString(" Changing it replaces the object.")
	}
	if n.ReplaceOnPresenceChange {
		b.WriteString(" Setting or unsetting it replaces the object; changing its value does not.")
	}
	if n.Computed {
		b.WriteString(" Read-only.")
	}
	return b.String()
}

func presenceChanged(_ context.Context, req planmodifier.Int64Request, resp *int64planmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsUnknown() && !req.PlanValue.IsUnknown() && req.StateValue.IsNull() != req.PlanValue.IsNull()
}
