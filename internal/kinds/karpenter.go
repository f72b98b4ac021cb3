package kinds

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// NodePool is karpenter.sh/v1 NodePool.
var NodePool = &Kind{
	GVK:      schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodePool"},
	Resource: "nodepools",
	Role:     Pool,
	Layout:   nodePoolLayout,
}

// NodeClaim is karpenter.sh/v1 NodeClaim; NodePools own them, and they hold a pool's or a
// node class's deletion until drained.
var NodeClaim = &Kind{
	GVK:      schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1", Kind: "NodeClaim"},
	Resource: "nodeclaims",
	Role:     Claim,
}

// NodeOverlay is karpenter.sh/v1alpha1 NodeOverlay.
var NodeOverlay = &Kind{
	GVK:      schema.GroupVersionKind{Group: "karpenter.sh", Version: "v1alpha1", Kind: "NodeOverlay"},
	Resource: "nodeoverlays",
	Role:     Overlay,
}

// nodePoolLayout merges the template's metadata and spec wrappers into template, so that
// template.labels and template.requirements sit side by side, and marks the fields whose
// changes the CRD's rules reject.
func nodePoolLayout(root *crdtree.Node) {
	tmpl := root.Child("template")
	tmpl.Flatten("metadata")
	tmpl.Flatten("spec")
	ref := tmpl.Child("node_class_ref")
	// The CRD rejects changes of group and kind (self.group == oldSelf.group).
	ref.Child("group").RequiresReplace = true
	ref.Child("kind").RequiresReplace = true
	// has(self.replicas) == has(oldSelf.replicas): a pool cannot switch between static and dynamic.
	root.Child("replicas").ReplaceOnPresenceChange = true
}
