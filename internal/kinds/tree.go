package kinds

import (
	"fmt"
	"sync"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

var (
	treesMu sync.Mutex
	trees   = map[*Kind]*crdtree.Node{}
)

// Tree returns the kind's tree, built once from its CRD: the object's name, the fields of
// spec (flattened into the root) and the read-only status, reshaped by the kind's Layout.
// Callers share it and must not change it. A kind without a CRD in this build is a defect
// of the build, and panics.
func (k *Kind) Tree() *crdtree.Node {
	treesMu.Lock()
	defer treesMu.Unlock()
	if t, ok := trees[k]; ok {
		return t
	}
	s, err := k.Schema()
	if err != nil {
		panic(err)
	}
	spec, status := s.Properties["spec"], s.Properties["status"]
	scope := "it is cluster-scoped and unique in the cluster"
	if k.Namespaced {
		scope = "it is unique in its namespace"
	}
	name := &crdtree.Node{
		Name: "name", Path: []string{"metadata", "name"}, Kind: crdtree.String, Required: true, RequiresReplace: true,
		Schema: &apiextensionsv1.JSONSchemaProps{Description: fmt.Sprintf("Name of the %s; %s.", k.GVK.Kind, scope)},
	}
	root := &crdtree.Node{Kind: crdtree.Object, Children: []*crdtree.Node{
		name,
		crdtree.FromSchema("spec", &spec, true, false),
		crdtree.FromSchema("status", &status, false, true),
	}}
	root.Flatten("spec")
	if k.Layout != nil {
		k.Layout(root)
	}
	trees[k] = root
	return root
}

// CRD returns the CRD of the kind's group and kind among those this build knows.
func (k *Kind) CRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	for _, c := range crds.Known() {
		if c.Spec.Group == k.GVK.Group && c.Spec.Names.Kind == k.GVK.Kind {
			return c, nil
		}
	}
	return nil, fmt.Errorf("no CRD of this build defines %s", k)
}

// Schema returns the OpenAPI schema of the kind's version as its CRD writes it (descriptions
// included).
func (k *Kind) Schema() (*apiextensionsv1.JSONSchemaProps, error) {
	crd, err := k.CRD()
	if err != nil {
		return nil, err
	}
	v, err := apihelpers.GetSchemaForVersion(crd, k.GVK.Version)
	if err != nil || v == nil || v.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("the CRD of %s has no schema for version %s (%v)", k, k.GVK.Version, err)
	}
	return v.OpenAPIV3Schema, nil
}
