package tfcrd

import (
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// AttributePath maps Kubernetes field path segments to the deepest Terraform attribute path
// that n's tree has for them. ok is false when not even the first attribute matched.
func AttributePath(n *crdtree.Node, segs []string) (path.Path, bool) {
	p, ok := n.AttributePath(segs)
	return Path(p), ok
}

// Path is the terraform-plugin-framework form of an attribute path of the tree.
func Path(p crdtree.AttrPath) path.Path {
	out := path.Empty()
	for _, s := range p {
		switch s.Type {
		case crdtree.AttributeName:
			out = out.AtName(s.Name)
		case crdtree.ListIndex:
			out = out.AtListIndex(s.Index)
		case crdtree.MapKey:
			out = out.AtMapKey(s.Name)
		}
	}
	return out
}
