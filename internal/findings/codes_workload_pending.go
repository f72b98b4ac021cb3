package findings

// Checks of the pods a simulation leaves pending and of workloads too large to simulate
// (internal/simulation/pending.go, internal/simulation/limits.go): simulate and review --workloads.
const (
	// PodsNeverScheduled (KRP304): no NodePool can ever take the pods.
	PodsNeverScheduled Code = "KRP304"
	// PodsPendingThisRound (KRP305): the pods are left pending by this provisioning round only
	// (the pools' limits, used up by the round's other pods).
	PodsPendingThisRound Code = "KRP305"
	// PodsPastClusterLimits (KRP306): the input has more pods or would need more nodes than a
	// cluster can hold, so it is not simulated.
	PodsPastClusterLimits Code = "KRP306"
)

var workloadPendingRules = []Rule{
	{
		Code: PodsNeverScheduled, Name: "PodsNeverScheduled", Severity: Warning,
		Title: "A workload's pods can never be scheduled: no NodePool admits them.",
		Help: "Karpenter's scheduler, as the simulation emulates it, finds no NodePool whose taints the pods tolerate, whose " +
			"requirements are compatible with theirs and that has an instance type they fit on within its limits, even with " +
			"nothing else launched: a single pod of the workload, simulated alone, is still left pending. The pods stay " +
			"`Pending` for good and Karpenter logs the reason the message quotes. Change the pods' requests, node selector, " +
			"affinity or tolerations, or the NodePool's requirements, taints or limits, so that a pool admits them, or add a " +
			"NodePool that does.",
		Reported: Reporting{Review: true, Note: workloadsNote + " The message names the workload, how many of its pods are " +
			"pending and Karpenter's reason for the first of them (one error per NodePool)."},
	},
	{
		Code: PodsPendingThisRound, Name: "PodsPendingThisRound", Severity: Note,
		Title: "Some of a workload's pods are left pending by this provisioning round, though a NodePool can take them.",
		Help: "A single pod of the workload, simulated alone, is scheduled, so a pool admits it; in the round with the other " +
			"pods it is left pending, usually because the pools' limits are used up: Karpenter charges each new NodeClaim " +
			"against the limits with the largest size it may still become (KRP119), and a later round, once those " +
			"NodeClaims have launched, charges their launched size and may place the pods. Where the limits are used up by " +
			"the pods themselves, they stay pending until the limits are raised.",
		Reported: Reporting{Review: true, Note: workloadsNote + " The data source does not show notes."},
	},
	{
		Code: PodsPastClusterLimits, Name: "PodsPastClusterLimits", Severity: Error,
		Title: "The workloads hold more pods, or need more nodes, than one cluster can run; they were not simulated.",
		Help: "Kubernetes' large-cluster limits are 150,000 pods and 5,000 nodes per cluster " +
			"(https://kubernetes.io/docs/setup/best-practices/cluster-large/), and AKS allows at most 5,000 nodes per " +
			"cluster (https://learn.microsoft.com/azure/aks/quotas-skus-regions). A replica count past them is almost always " +
			"a typo (`replicas: 1000000`), and simulating it would take minutes and gigabytes, so the simulation stops " +
			"before the work. Fix the replicas at the workload's line, or raise the cap (`--max-pods` for `simulate` and " +
			"`review --workloads`, `max_pods` on `karpenter_provisioning_simulation`) when the count is meant.",
		Reported: Reporting{Review: true, Note: workloadsNote},
	},
}
