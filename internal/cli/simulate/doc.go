// Package simulate is the simulate command. It reads NodePools, node classes and workloads
// as the review reads its inputs (files, directories, Kustomize overlays, Helm output on
// standard input, Terraform plans for the pools). It simulates each cluster with
// internal/simulation and reports the nodes and their cost as text, markdown or JSON. It sits
// beside the provider, on the domain: no Terraform library, no Terraform-facing package.
package simulate
