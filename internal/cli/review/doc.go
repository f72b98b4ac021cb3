// Package review is the `terraform-provider-karpenter review` command: it reads NodePools and
// AKSNodeClasses from Kubernetes YAML (files, directories, Kustomize or Helm output on stdin)
// and from Terraform plan JSON, groups them per cluster, runs the same checks the provider
// runs at plan time, and reports findings with their source locations as text, JSON or SARIF.
//
// This package is the orchestration; each stage of the pipeline is a package of its own:
// config (.karpenter-review.yaml) -> source (files, limits, Helm, Kustomize, plans) ->
// assemble (which files belong to which cluster) -> checks -> report (text, JSON, SARIF).
// fleet sits beside checks. A lower stage never imports a higher one
// (internal/testsupport/archtest). load.go runs the stages before the checks (Load), which
// simulate and the cost prediction share; review.go runs the checks on what Load made and
// filters and ranks the findings; cost.go adds predicted costs (--workloads, --baseline);
// cli.go is the command.
// Checks are plain functions over a Cluster, so the provisioning solver plugs in as one more
// Check without touching the loading or the output.
//
// The packages need no Terraform plugin framework: plan values are mapped to Kubernetes
// objects through the resources' attribute tree (internal/kinds/crdtree), and validation is
// internal/crdvalidate, exactly as the resources do it.
package review
