// Package kustomize builds a kustomization as `kustomize build` does, with
// sigs.k8s.io/kustomize/api krusty. It runs on a read-only view of the disk that the caller
// bounds, with no plugins and nothing fetched. It is in the domain, below the review and the
// simulate command. Each built resource says which file it came from and which
// kustomizations transformed it (kustomize's origin and transformer annotations). So a reader
// can point at the file that set a value.
package kustomize
