package findings

// Change impact: what a change does to a running cluster's nodes, judged from its NodeClaims
// (simulate --cluster-state or --kubeconfig, and terraform plan when the provider is connected;
// internal/simulation/drift_findings.go).
const (
	DriftAllAtOnce     Code = "KRP420"
	DriftNeverReplaced Code = "KRP421"
	ChangeDriftsNodes  Code = "KRP422"
)

// clusterStateNote says where the change-impact checks run.
const clusterStateNote = "Only with a running cluster's state: `simulate --cluster-state` or `--kubeconfig` (a read-only listing), " +
	"and `terraform plan` when the provider is connected to the cluster (KRP422). The drifted NodeClaims are those Karpenter's Drift " +
	"controller would mark Drifted once the change is applied (its own `Drifted` verdict: the NodePool hash, requirements, " +
	"the node class hash); drift by node image, Kubernetes version, AMI, subnets and security groups needs the cloud's live " +
	"state and is not judged."

var changeImpactRules = []Rule{
	{
		Code: DriftAllAtOnce, Name: "DriftAllAtOnce", Severity: Warning,
		Title: "The change drifts more than half of a pool's nodes, and its disruption budgets let them all go at once.",
		Help: "Karpenter replaces drifted nodes as fast as the pool's `disruption.budgets` allow for the `Drifted` reason " +
			"(10% of the nodes when no budget is set). A budget that allows as many nodes as drift (`nodes: \"100%\"`, or a " +
			"count at least the drifted nodes) lets Karpenter cordon and drain all of them together: every workload " +
			"on the pool reschedules at the same time, and capacity dips while the replacements launch. " +
			"Add a budget for `Drifted` with a small count or percentage, or a schedule with a window " +
			"(https://karpenter.sh/docs/concepts/disruption/#nodepool-disruption-budgets).",
		Reported: Reporting{Review: true, Note: clusterStateNote + " The budgets are read at the start (now, or `--at`) with " +
			"Karpenter's own `MustGetAllowedDisruptions`."},
	},
	{
		Code: DriftNeverReplaced, Name: "DriftNeverReplaced", Severity: Warning,
		Title: "Drifted nodes of the pool can never be replaced: a budget allows 0 Drifted disruptions, or their drain is blocked for good.",
		Help: "A drifted node runs on until Karpenter replaces it. It never does when every budget window of the pool allows 0 " +
			"disruptions for `Drifted` over the next 31 days (the longest period of a day-of-month schedule), or when the node " +
			"cannot be drained: a pod annotated `karpenter.sh/do-not-disrupt: \"true\"`, a node annotated so, or a " +
			"PodDisruptionBudget that allows no eviction, on a NodeClaim without `terminationGracePeriod` " +
			"(which is what bounds a drain). The nodes keep the old configuration indefinitely. " +
			"Allow Drifted disruptions in a budget window, set `terminationGracePeriod` on the pool, or let the budget allow an eviction.",
		Reported: Reporting{Review: true, Note: clusterStateNote + " The blocks are Karpenter's `ValidateNodeDisruptable` and " +
			"`ValidatePodsDisruptable` checks, on the pods and PodDisruptionBudgets of the cluster state (`status.disruptionsAllowed` as listed)."},
	},
	{
		Code: ChangeDriftsNodes, Name: "ChangeDriftsNodes", Severity: Warning,
		Title: "The change drifts running nodes of the pool: Karpenter will replace them.",
		Help: "Changing a NodePool's template (labels, annotations, taints, requirements, node class reference, " +
			"expireAfter, terminationGracePeriod, kubelet settings) or its node class changes the hash Karpenter stamps on " +
			"each NodeClaim, and every NodeClaim whose hash differs is marked Drifted and replaced: a new node launches, " +
			"the old one is cordoned and drained. The message says how many nodes drift and at what pace the budgets " +
			"replace them (Karpenter's Drift method disrupts one NodeClaim per command; the budgets bound how many run at once). " +
			"Apply such changes in a maintenance window, or tighten the budgets for `Drifted` first.",
		Reported: Reporting{Plan: true, Note: "Only when the provider is connected to the cluster (an existing object, refreshed in this plan): " +
			"the pool's NodeClaims are listed read-only (get and list on `nodeclaims.karpenter.sh`). An update to a `karpenter_aksnodeclass` " +
			"or `karpenter_ec2nodeclass` reports it too, once per NodePool whose nodes it drifts: it lists every NodeClaim, keeps those whose " +
			"`nodeClassRef` names the class, and reads their NodePools and the class as the cluster holds them (list on `nodepools.karpenter.sh`). " +
			"Offline plans, `-refresh=false` plans, and plans with " +
			"`checks.cluster_impact = false` in the provider block, do not report it. A plan whose listing fails gets a warning saying so, not an error. " +
			"The drift is Karpenter's own `Drifted` verdict (the NodePool hash and requirements; the node class hash where the " +
			"provider reads the class); only NodeClaims the change newly drifts count."},
	},
}
