package instancetypes

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// The data source's inputs are parts of the resources' attribute trees, derived from the same
// CRDs, so that they take exactly what karpenter_nodepool and karpenter_aksnodeclass take.

// requirementsPrefix is the Kubernetes path of the NodePool template, the requirements' parent.
const requirementsPrefix = "spec.template"

// nodeClassFields are the AKSNodeClass attributes that decide which sizes qualify (the fields
// instancetype.FromAKSNodeClass reads); the others (tags, kubelet, subnet) change no size.
var nodeClassFields = []string{"image_family", "os_disk_size_gb", "max_pods", "fips_mode", "gpu", "security", "artifact_streaming", "local_dns"}

var (
	nodePoolValidator  = crdvalidate.MustFor(kinds.NodePool.GVK)
	nodeClassValidator = crdvalidate.MustFor(kinds.AKSNodeClass.GVK)
)

// nodePoolTree and nodeClassTree are the resources' attribute trees.
func nodePoolTree() *crdtree.Node  { return kinds.NodePool.Tree() }
func nodeClassTree() *crdtree.Node { return kinds.AKSNodeClass.Tree() }

// requirementsNode is karpenter_nodepool's template.requirements.
func requirementsNode() *crdtree.Node { return nodePoolTree().Child("template").Child("requirements") }

// nodeClassNode is an object node holding the AKSNodeClass attributes of nodeClassFields, at
// their places in the AKSNodeClass (spec.imageFamily, ...).
func nodeClassNode() *crdtree.Node {
	root := nodeClassTree()
	n := &crdtree.Node{Kind: crdtree.Object}
	for _, name := range nodeClassFields {
		n.Children = append(n.Children, root.Child(name))
	}
	return n
}

// dataSourceAttribute is the data source attribute of a tree node: the name, type, nesting and
// documentation of the resource's attribute, optional unless the CRD requires it, without the
// resource's plan modifiers and computed defaults (the CRD's defaults are applied to the input
// as the API server applies them). kind names the Kubernetes kind in the description.
func dataSourceAttribute(n *crdtree.Node, k8sPrefix, kind string) schema.Attribute {
	k8sPath := strings.TrimPrefix(k8sPrefix+"."+strings.Join(n.Path, "."), ".")
	desc := tfcrd.Attribute(n, k8sPrefix).GetMarkdownDescription()
	desc = strings.Replace(desc, "Sets `"+k8sPath+"`.", "As `"+k8sPath+"` of the "+kind+".", 1)
	optional := !n.Required
	switch n.Kind {
	case crdtree.Object:
		return schema.SingleNestedAttribute{Attributes: dataSourceAttributes(n, k8sPath, kind), Required: n.Required, Optional: optional, MarkdownDescription: desc}
	case crdtree.ObjectList:
		return schema.ListNestedAttribute{NestedObject: schema.NestedAttributeObject{Attributes: dataSourceAttributes(n, k8sPath+"[*]", kind)},
			Required: n.Required, Optional: optional, MarkdownDescription: desc}
	case crdtree.StringList:
		return schema.ListAttribute{ElementType: types.StringType, Required: n.Required, Optional: optional, MarkdownDescription: desc}
	case crdtree.StringMap:
		return schema.MapAttribute{ElementType: types.StringType, Required: n.Required, Optional: optional, MarkdownDescription: desc}
	case crdtree.Int64:
		return schema.Int64Attribute{Required: n.Required, Optional: optional, MarkdownDescription: desc}
	case crdtree.Float64:
		return schema.Float64Attribute{Required: n.Required, Optional: optional, MarkdownDescription: desc}
	case crdtree.Bool:
		return schema.BoolAttribute{Required: n.Required, Optional: optional, MarkdownDescription: desc}
	default:
		return schema.StringAttribute{Required: n.Required, Optional: optional, MarkdownDescription: desc}
	}
}

func dataSourceAttributes(n *crdtree.Node, k8sPrefix, kind string) map[string]schema.Attribute {
	out := make(map[string]schema.Attribute, len(n.Children))
	for _, c := range n.Children {
		if !c.Computed {
			out[c.Name] = dataSourceAttribute(c, k8sPrefix, kind)
		}
	}
	return out
}
