// Package assemble is the third stage of the review pipeline (config -> source -> assemble ->
// checks -> report): it decides which files belong to which cluster (the config's paths, the
// kustomizations that include a base, the provider configurations of a plan), applies each
// cluster's patches as Kustomize would, and builds one Cluster per cluster with its region,
// Karpenter release and external node classes.
//
// Files: clusters.go (Membership: assignment, patches, Build), kustomize_build.go (running
// kustomize build and attributing its output to source lines), workloads.go (the cluster's
// other documents for the workload readers), cluster.go (the Cluster checks judge),
// cluster_settings.go (per-cluster settings from the config and the plan).
package assemble
