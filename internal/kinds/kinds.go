package kinds

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// Role is what a kind is for in Karpenter.
type Role int

const (
	// Pool is a NodePool: the constraints and limits Karpenter provisions nodes under.
	Pool Role = iota + 1
	// Claim is a NodeClaim: one node Karpenter requested.
	Claim
	// Overlay is a NodeOverlay: adjustments of instance types' prices and capacity.
	Overlay
	// NodeClass is a cloud provider's node settings, which a NodePool's nodeClassRef names.
	NodeClass
)

// Kind is one custom resource kind.
type Kind struct {
	GVK schema.GroupVersionKind
	// Resource is the plural resource name, e.g. nodepools.
	Resource string
	// Namespaced is the CRD's scope; Karpenter's kinds are all cluster-scoped.
	Namespaced bool
	Role       Role
	// Cloud names the cloud provider whose kind it is ("aks"); "" for Karpenter's own kinds.
	Cloud string
	// Layout reshapes the tree derived from the CRD: which wrapper objects are flattened
	// away and which fields the CRD's rules make immutable. nil keeps the tree as derived
	// (with spec flattened, as for every kind).
	Layout func(root *crdtree.Node)
}

// All are the kinds this build knows, Karpenter's own first.
func All() []*Kind {
	return []*Kind{NodePool, NodeClaim, NodeOverlay, AKSNodeClass, EC2NodeClass}
}

// GVR is the kind's group, version and resource.
func (k *Kind) GVR() schema.GroupVersionResource {
	return k.GVK.GroupVersion().WithResource(k.Resource)
}

// APIVersion is the kind's apiVersion as manifests write it, e.g. karpenter.sh/v1.
func (k *Kind) APIVersion() string { return k.GVK.GroupVersion().String() }

// String names the kind as kubectl does with its group: NodePool.karpenter.sh.
func (k *Kind) String() string { return k.GVK.GroupKind().String() }

// For returns the kind of the given group, version and kind, or nil when this build does not
// know it (another version of a known kind included).
func For(gvk schema.GroupVersionKind) *Kind {
	for _, k := range All() {
		if k.GVK == gvk {
			return k
		}
	}
	return nil
}

// ForGroupKind returns the kind of the given group and kind in whatever version this build
// knows it, or nil.
func ForGroupKind(gk schema.GroupKind) *Kind {
	for _, k := range All() {
		if k.GVK.GroupKind() == gk {
			return k
		}
	}
	return nil
}

// Lookup returns the kind a manifest's apiVersion and kind name, or nil when this build does
// not know it or apiVersion does not parse.
func Lookup(apiVersion, kind string) *Kind {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil
	}
	return For(gv.WithKind(kind))
}

// WithRole returns the kinds of a role, e.g. every cloud provider's node class.
func WithRole(r Role) []*Kind {
	var out []*Kind
	for _, k := range All() {
		if k.Role == r {
			out = append(out, k)
		}
	}
	return out
}
