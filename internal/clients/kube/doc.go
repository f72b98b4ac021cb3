// Package kube reads and writes Karpenter objects through the Kubernetes API with client-go.
// Writes are server-side apply under the provider's own field manager, and a delete waits until
// the object is gone. It is a domain client, with no Terraform imports. internal/connect creates
// its clients for the resources; the simulate command reads a live cluster with it.
package kube
