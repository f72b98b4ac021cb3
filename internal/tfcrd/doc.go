// Package tfcrd maps a CRD tree (internal/kinds/crdtree) onto a Terraform resource schema and
// converts values between Terraform and Kubernetes objects. It is the framework half of the
// CRD resource engine, a Terraform-facing helper: the tree itself, its paths and its JSON form
// are framework-free.
package tfcrd
