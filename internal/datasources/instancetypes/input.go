package instancetypes

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

// objectName names the objects the data source checks, in messages of the CRD validation.
const objectName = "karpenter-instance-types"

// poolFromConfig reads `requirements` as karpenter_nodepool reads template.requirements (the
// same tree), judges them by the NodePool CRD's own rules, and returns the pool to analyse.
// The node class reference is NAP's default: the node class comes from `node_class`.
func poolFromConfig(ctx context.Context, cfg tftypes.Value, diags *diag.Diagnostics) *analysis.Pool {
	reqs := requirementsNode()
	tmpl, err := tfcrd.ToObject(&crdtree.Node{Kind: crdtree.Object, Children: []*crdtree.Node{reqs}}, cfg)
	if err != nil {
		diags.AddAttributeError(path.Root("requirements"), "Cannot read requirements", err.Error())
		return nil
	}
	list, _, _ := unstructured.NestedSlice(tmpl, reqs.Path...)
	if list == nil {
		list = []any{}
	}
	obj := map[string]any{
		"apiVersion": kinds.NodePool.APIVersion(), "kind": kinds.NodePool.GVK.Kind,
		"metadata": map[string]any{"name": objectName},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"nodeClassRef": map[string]any{"group": kinds.AKSNodeClass.GVK.Group, "kind": kinds.AKSNodeClass.GVK.Kind, "name": "default"},
			"requirements": list,
		}}},
	}
	ok := true
	for _, e := range nodePoolValidator.Validate(ctx, obj) {
		segs := crdtree.ParseFieldPath(e.Field)
		p := path.Root("requirements")
		if len(segs) >= 5 && segs[3] == "requirements" {
			var i int
			if _, err := fmt.Sscan(segs[4], &i); err == nil {
				p = p.AtListIndex(i)
				if len(segs) > 5 {
					p = p.AtName(crdtree.SnakeCase(segs[5]))
				}
			}
		}
		diags.AddAttributeError(p, "Invalid requirement", fmt.Sprintf("Attribute %s: %s", p, crdvalidate.Explain(e)))
		ok = false
	}
	if !ok {
		return nil
	}
	pool, err := analysis.PoolFromObject(obj)
	if err != nil {
		diags.AddAttributeError(path.Root("requirements"), "Cannot read requirements", err.Error())
		return nil
	}
	return pool
}

// nodeClassFromConfig reads `node_class` as karpenter_aksnodeclass reads the same attributes,
// judges it by the AKSNodeClass CRD's rules, applies the CRD's defaults as the API server
// does, and returns the settings the resources' checks derive from such an object.
func nodeClassFromConfig(ctx context.Context, cfg tftypes.Value, diags *diag.Diagnostics) (aks.NodeClass, bool) {
	attrs := map[string]tftypes.Value{}
	if err := cfg.As(&attrs); err != nil {
		diags.AddError("Cannot read configuration", err.Error())
		return aks.NodeClass{}, false
	}
	v, ok := attrs["node_class"]
	spec := map[string]any{}
	if ok && !v.IsNull() {
		obj, err := tfcrd.ToObject(nodeClassNode(), v)
		if err != nil {
			diags.AddAttributeError(path.Root("node_class"), "Cannot read node_class", err.Error())
			return aks.NodeClass{}, false
		}
		if s, ok := obj["spec"].(map[string]any); ok {
			spec = s
		}
		if !applyAliases(v, spec, diags) {
			return aks.NodeClass{}, false
		}
	}
	obj := map[string]any{
		"apiVersion": kinds.AKSNodeClass.APIVersion(), "kind": kinds.AKSNodeClass.GVK.Kind,
		"metadata": map[string]any{"name": objectName},
		"spec":     spec,
	}
	valid := true
	tree := nodeClassTree()
	for _, e := range nodeClassValidator.Validate(ctx, obj) {
		p := path.Root("node_class")
		if at, ok := tfcrd.AttributePath(tree, crdtree.ParseFieldPath(e.Field)); ok {
			p = under(p, at)
		}
		diags.AddAttributeError(p, "Invalid node_class", fmt.Sprintf("Attribute %s: %s\n\nThe Kubernetes API server would reject an AKSNodeClass with it.", p, crdvalidate.Explain(e)))
		valid = false
	}
	if !valid {
		return aks.NodeClass{}, false
	}
	nodeClassValidator.Default(obj)
	nc, err := analysis.NodeClassFromObject(obj)
	if err != nil {
		diags.AddAttributeError(path.Root("node_class"), "Cannot read node_class", err.Error())
		return aks.NodeClass{}, false
	}
	return nc, true
}

// under is p with the steps of rel appended.
func under(p path.Path, rel path.Path) path.Path {
	for _, s := range rel.Steps() {
		switch s := s.(type) {
		case path.PathStepAttributeName:
			p = p.AtName(string(s))
		case path.PathStepElementKeyInt:
			p = p.AtListIndex(int(s))
		case path.PathStepElementKeyString:
			p = p.AtMapKey(string(s))
		}
	}
	return p
}
