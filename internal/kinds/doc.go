// Package kinds is the one place that knows the Kubernetes kinds of Karpenter and its cloud
// providers that this project reads and writes. For each it holds the group/version/kind and
// resource, the scope, the role, and the layout that shapes its CRD tree (crdtree), and the
// tree itself, built once from the pinned CRD (internal/crds). It is in the domain and
// framework-free, so the review, the Bicep generator and the simulation reach a kind without
// the Terraform resources. The resources refer to an entry here for everything not Terraform.
// A new node class is one more entry: a file of its own, listed in All.
package kinds
