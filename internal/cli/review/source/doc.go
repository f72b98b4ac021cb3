// Package source is the second stage of the review pipeline (config -> source -> assemble ->
// checks -> report): it reads the inputs within their limits (files, directories, standard
// input, Helm charts, kustomizations, Terraform plan JSON) into Objects that remember where
// each field was written, and reports what cannot be read as Findings.
//
// Findings, Objects and Locations are defined here because every later stage passes them on.
// Files: input.go and read.go (what is read, confinement and byte limits), yamldoc.go and
// objects.go (YAML documents to objects), kinds.go (which kinds are reviewed), plan.go and
// plan_fleet.go (Terraform plans), convert_v1beta1.go and infer_cloud.go (v1beta1 pools),
// helm.go, kustomize.go (kustomization files), mergepatch.go (strategic merge patches),
// object.go and finding.go (the values later stages share).
package source
