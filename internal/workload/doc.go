// Package workload reads the pods that Kubernetes manifests would create: Deployments,
// ReplicaSets, StatefulSets, ReplicationControllers, Jobs, CronJobs (one run), Pods and
// DaemonSets. Replica counts are as written, or an HPA's maxReplicas. Requests are defaulted
// as the API server defaults them (requests from limits). They are summed as Kubernetes sums
// them: Karpenter's resources.Ceiling over k8s.io/component-helpers/resource, with
// containers, init and sidecar containers, and overhead. The overhead and scheduling of the
// pod's RuntimeClass are set as the API server's admission sets them.
//
// It reads documents that a caller has already split and parsed (internal/cli/review reads files,
// directories, Kustomize overlays and Helm output); it knows nothing of Terraform. Problems are
// findings with a code from internal/findings and the line of the field concerned, never a
// panic. A document that is not a valid object of its kind is reported and skipped; the rest
// is read.
package workload
