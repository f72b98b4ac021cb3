package kinds_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// Each entry says what its CRD says: the resource name, the scope, and a version the CRD
// serves and stores (the version the API server keeps, which this project writes).
func TestKindsMatchTheirCRDs(t *testing.T) {
	for _, k := range kinds.All() {
		crd, err := k.CRD()
		if err != nil {
			t.Error(err)
			continue
		}
		if crd.Spec.Names.Plural != k.Resource {
			t.Errorf("%s: resource %q, the CRD's plural is %q", k, k.Resource, crd.Spec.Names.Plural)
		}
		if namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped; namespaced != k.Namespaced {
			t.Errorf("%s: Namespaced %v, the CRD's scope is %s", k, k.Namespaced, crd.Spec.Scope)
		}
		i := slices.IndexFunc(crd.Spec.Versions, func(v apiextensionsv1.CustomResourceDefinitionVersion) bool { return v.Name == k.GVK.Version })
		if i < 0 || !crd.Spec.Versions[i].Served || !crd.Spec.Versions[i].Storage {
			t.Errorf("%s: version %s is not the CRD's served storage version", k, k.GVK.Version)
		}
		if k.Role == 0 {
			t.Errorf("%s has no role", k)
		}
		if (k.Role == kinds.NodeClass) != (k.Cloud != "") {
			t.Errorf("%s: role %d with cloud %q; node classes, and only they, belong to a cloud", k, k.Role, k.Cloud)
		}
	}
}

// Every CRD the build ships has its entry, so that a CRD added to internal/crds (a second
// cloud's node class) cannot be served without the kinds knowing it.
func TestEveryCRDHasAKind(t *testing.T) {
	for _, c := range crds.Known() {
		gk := schema.GroupKind{Group: c.Spec.Group, Kind: c.Spec.Names.Kind}
		if kinds.ForGroupKind(gk) == nil {
			t.Errorf("the CRD %s has no entry in kinds.All", c.Name)
		}
	}
	seen := map[schema.GroupKind]bool{}
	for _, k := range kinds.All() {
		if seen[k.GVK.GroupKind()] {
			t.Errorf("%s is listed twice", k)
		}
		seen[k.GVK.GroupKind()] = true
	}
}

func TestLookup(t *testing.T) {
	cases := []struct {
		apiVersion, kind string
		want             *kinds.Kind
	}{
		{"karpenter.sh/v1", "NodePool", kinds.NodePool},
		{"karpenter.sh/v1", "NodeClaim", kinds.NodeClaim},
		{"karpenter.sh/v1alpha1", "NodeOverlay", kinds.NodeOverlay},
		{"karpenter.azure.com/v1beta1", "AKSNodeClass", kinds.AKSNodeClass},
		{"karpenter.k8s.aws/v1", "EC2NodeClass", kinds.EC2NodeClass},
		{"karpenter.k8s.aws/v1beta1", "EC2NodeClass", nil},
		// Another version of a known kind is not the entry: its schema may differ.
		{"karpenter.sh/v1beta1", "NodePool", nil},
		{"karpenter.azure.com/v1alpha2", "AKSNodeClass", nil},
		// Kinds are case-sensitive, as the API server's are.
		{"karpenter.sh/v1", "nodepool", nil},
		{"karpenter.azure.com/v1beta1", "NodePool", nil},
		{"v1", "Pod", nil},
		{"a/b/c", "NodePool", nil},
		{"", "", nil},
	}
	for _, c := range cases {
		if got := kinds.Lookup(c.apiVersion, c.kind); got != c.want {
			t.Errorf("Lookup(%q, %q) = %v, want %v", c.apiVersion, c.kind, got, c.want)
		}
	}
	if got := kinds.ForGroupKind(schema.GroupKind{Group: "karpenter.sh", Kind: "NodePool"}); got != kinds.NodePool {
		t.Errorf("ForGroupKind(NodePool.karpenter.sh) = %v", got)
	}
	if got := kinds.For(kinds.AKSNodeClass.GVK); got != kinds.AKSNodeClass {
		t.Errorf("For(%s) = %v", kinds.AKSNodeClass.GVK, got)
	}
	if got := kinds.WithRole(kinds.NodeClass); !slices.Equal(got, []*kinds.Kind{kinds.AKSNodeClass, kinds.EC2NodeClass}) {
		t.Errorf("node classes: %v", got)
	}
	if got := kinds.NodeClaim.GVR(); got != (schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}) {
		t.Errorf("NodeClaim GVR: %v", got)
	}
	if got := kinds.AKSNodeClass.APIVersion(); got != "karpenter.azure.com/v1beta1" {
		t.Errorf("AKSNodeClass apiVersion: %q", got)
	}
}

// The tree reads the very schema the validator judges with.
func TestSchemaIsTheValidators(t *testing.T) {
	for _, k := range kinds.All() {
		s, err := k.Schema()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(s, crdvalidate.MustFor(k.GVK).Schema) {
			t.Errorf("%s: the schema differs from the validator's", k)
		}
	}
}

// The trees are built once per kind, with spec flattened for every kind and the NodePool's
// template wrappers and immutable fields as its layout says.
func TestTrees(t *testing.T) {
	for _, k := range kinds.All() {
		root := k.Tree()
		if root != k.Tree() {
			t.Errorf("%s: the tree is built again", k)
		}
		name := root.Child("name")
		if name == nil || !slices.Equal(name.Path, []string{"metadata", "name"}) || !name.Required || !name.RequiresReplace {
			t.Errorf("%s: name attribute %+v", k, name)
		}
		if root.Child("spec") != nil {
			t.Errorf("%s: spec is not flattened", k)
		}
		if st := root.Child("status"); st != nil && !st.Computed {
			t.Errorf("%s: status is not read-only", k)
		}
	}
	np := kinds.NodePool.Tree()
	tmpl := np.Child("template")
	for _, c := range []struct {
		name string
		path []string
	}{
		{"labels", []string{"metadata", "labels"}},
		{"requirements", []string{"spec", "requirements"}},
		{"node_class_ref", []string{"spec", "nodeClassRef"}},
	} {
		if n := tmpl.Child(c.name); n == nil || !slices.Equal(n.Path, c.path) {
			t.Errorf("template.%s: %+v, want path %v", c.name, n, c.path)
		}
	}
	ref := tmpl.Child("node_class_ref")
	if !ref.Child("group").RequiresReplace || !ref.Child("kind").RequiresReplace || ref.Child("name").RequiresReplace {
		t.Error("node_class_ref: group and kind, and only they, are immutable")
	}
	if r := np.Child("replicas"); r == nil || !r.ReplaceOnPresenceChange || r.RequiresReplace {
		t.Errorf("replicas: %+v", r)
	}
	if w := np.Child("weight"); w == nil || !slices.Equal(w.Path, []string{"spec", "weight"}) {
		t.Errorf("weight: %+v", w)
	}
}

// A kind whose CRD this build does not ship, or a version its CRD lacks, is an error that
// names it, not a nil schema.
func TestKindWithoutCRD(t *testing.T) {
	gce := &kinds.Kind{GVK: schema.GroupVersionKind{Group: "karpenter.k8s.gcp", Version: "v1alpha1", Kind: "GCENodeClass"}, Resource: "gcenodeclasses", Role: kinds.NodeClass, Cloud: "gke"}
	if _, err := gce.CRD(); err == nil || !strings.Contains(err.Error(), "GCENodeClass.karpenter.k8s.gcp") {
		t.Errorf("CRD() of a kind without CRD: %v", err)
	}
	old := &kinds.Kind{GVK: schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1beta1", Kind: "NodePool"}, Resource: "nodepools"}
	if _, err := old.Schema(); err == nil || !strings.Contains(err.Error(), "v1beta1") {
		t.Errorf("Schema() of a version the CRD lacks: %v", err)
	}
}
