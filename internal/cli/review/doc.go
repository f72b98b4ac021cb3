// Package review is the `terraform-provider-karpenter review` command: it reads NodePools and
// AKSNodeClasses from Kubernetes YAML (files, directories, Kustomize or Helm output on stdin)
// and from Terraform plan JSON, groups them per cluster, runs the same checks the provider
// runs at plan time, and reports findings with their source locations as text, JSON or SARIF.
//
// The flow is: load inputs (input.go, yamldoc.go, plan.go, kustomize.go) into Objects that
// remember where each field came from; assign them to clusters (config.go, clusters.go); run
// every Check on every cluster (check*.go); filter and rank the findings (review.go); render
// (report_*.go). Checks are plain functions over a Cluster, so the provisioning solver plugs
// in as one more Check without touching the loading or the output.
//
// The package needs no Terraform plugin framework: plan values are mapped to Kubernetes
// objects through the resources' attribute tree (internal/kinds/crdtree), and validation is
// internal/crdvalidate, exactly as the resources do it.
package review
