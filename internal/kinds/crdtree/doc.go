// Package crdtree is the structural tree of a Kubernetes CRD as this project maps it: one node
// per field, named in snake_case, with the Kubernetes path it stands for. The wrappers spec,
// template.metadata and template.spec are flattened away, so users write what they mean. The
// tree is derived from the CRD at start-up, so every field of the pinned CRD is covered and
// documented by its own description. It is in the domain and framework-free: the review, the
// Bicep generator and the simulation read it, and internal/tfcrd maps it onto Terraform.
package crdtree
