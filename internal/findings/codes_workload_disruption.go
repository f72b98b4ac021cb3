package findings

// Disruption checks that need the workloads (review --workloads, simulate): what a pool's
// disruption settings do to the pods Karpenter's prediction places on it
// (internal/simulation/disruption.go).
const (
	ExpiryBlockedByPDB          Code = "KRP411"
	SingleReplicaConsolidated   Code = "KRP412"
	SpotDoNotDisrupt            Code = "KRP413"
	ExpiryBlockedByDoNotDisrupt Code = "KRP414"
)

var workloadDisruptionRules = []Rule{
	{
		Code: ExpiryBlockedByPDB, Name: "ExpiryBlockedByPDB", Severity: Warning,
		Title: "Expired nodes of the pool can never finish draining: a PodDisruptionBudget allows no eviction and no terminationGracePeriod is set.",
		Help: "When a node reaches `expireAfter` (720h unless set), Karpenter deletes its NodeClaim whatever the disruption budgets " +
			"say and drains it through the eviction API, which honours PodDisruptionBudgets. `terminationGracePeriod` is what " +
			"bounds that drain: \"If left undefined, the controller will wait indefinitely for pods to be drained\" " +
			"(`NodeClaimTemplateSpec.TerminationGracePeriod` in sigs.k8s.io/karpenter@v1.14.1 pkg/apis/v1/nodepool.go; the " +
			"eviction loop in pkg/controllers/node/termination/terminator/eviction.go retries a 429 forever). A budget whose " +
			"`status.disruptionsAllowed` is 0 with every pod healthy, or a pod selected by two budgets (which the eviction " +
			"subresource refuses), keeps the node cordoned and paid for indefinitely. The disruption controller " +
			"(k8s.io/kubernetes pkg/controller/disruption) writes 0 for `maxUnavailable: 0`, `minAvailable` equal to the " +
			"replicas or 100%, and also where it is less obvious: `maxUnavailable` and percentages scale against the " +
			"replicas of the pods' controllers, so bare Pods count as healthy but not as expected and a budget over bare " +
			"Pods only allows nothing; the pods of a Job or a DaemonSet have no scale subresource, so such a budget fails to " +
			"sync and its fail-safe writes 0; a budget that sets neither limit expects no pod. DaemonSet pods are drained " +
			"too (last), so a budget over them blocks every pool the DaemonSet runs on. A Job's pods end, so for a Job the " +
			"drain waits until they complete. The pool is the one Karpenter's predicted placement puts the pods on. " +
			"Set `terminationGracePeriod` on the pool, or let the budget allow one eviction " +
			"(https://karpenter.sh/docs/concepts/disruption/#terminationgraceperiod).",
		Reported: Reporting{Review: true, Note: workloadDisruptionNote + " A budget is taken as blocking when its " +
			"`disruptionsAllowed` is 0 with every selected pod healthy, by the disruption controller's arithmetic (held " +
			"against kube-controller-manager and Karpenter's own `pdb.Limits.CanEvictPods` on a 240-case corpus in " +
			"internal/workload). Not reported: budgets that allow an eviction (unhealthy pods can still stall a drain), an " +
			"integer `minAvailable` over DaemonSet pods (it depends on the node count), and pods annotated " +
			"`karpenter.sh/do-not-disrupt: \"true\"`, which the drain never evicts whatever the budget (KRP414)."},
	},
	{
		Code: SingleReplicaConsolidated, Name: "SingleReplicaConsolidated", Severity: Note,
		Title: "A single-replica workload without a PodDisruptionBudget runs on a pool that consolidates underutilized nodes.",
		Help: "With `consolidationPolicy: WhenEmptyOrUnderutilized` (and `consolidateAfter` not `Never`) Karpenter deletes or " +
			"replaces nodes whose pods fit elsewhere and evicts their pods; it checks only PodDisruptionBudgets and the " +
			"`karpenter.sh/do-not-disrupt` annotation before doing so (https://karpenter.sh/docs/concepts/disruption/#consolidation). " +
			"The only pod of a Deployment or StatefulSet is then down until its replacement is scheduled and ready, at any " +
			"time the consolidation pass chooses. The pool is the one Karpenter's predicted placement puts " +
			"the pod on. Run two replicas with a PodDisruptionBudget of `maxUnavailable: 1`, or, if the outage is acceptable, " +
			"suppress the finding.",
		Reported: Reporting{Review: true, Note: workloadDisruptionNote + " A note. Only Deployments, " +
			"StatefulSets, ReplicaSets and ReplicationControllers with one replica (HPA's maxReplicas with `--hpa-max`; not when an " +
			"HPA's minReplicas is 2 or more), " +
			"without a do-not-disrupt annotation, on a pool whose `consolidateAfter` is not `Never`, that is not static " +
			"(`spec.replicas`), that does not annotate its nodes `karpenter.sh/do-not-disrupt: \"true\"` " +
			"(`spec.template.metadata.annotations`: no such node is a disruption candidate), and whose budgets without a " +
			"schedule allow Underutilized disruptions (a zero budget is KRP401)."},
	},
	{
		Code: SpotDoNotDisrupt, Name: "SpotDoNotDisrupt", Severity: Warning,
		Title: "Pods annotated karpenter.sh/do-not-disrupt run on a pool that launches spot nodes.",
		Help: "`karpenter.sh/do-not-disrupt` blocks voluntary disruption only: consolidation of the pod's node, and drift " +
			"without a `terminationGracePeriod`. It does not block expiration, repair, or the eviction of a spot VM when " +
			"Azure reclaims the capacity (https://karpenter.sh/docs/reference/annotations/#karpentershdo-not-disrupt; " +
			"`StateNode.ValidatePodsDisruptable` in sigs.k8s.io/karpenter pkg/controllers/state). A workload that must not " +
			"be interrupted but tolerates the spot pool's taint, or lands on a pool whose `karpenter.sh/capacity-type` " +
			"allows spot, is interrupted anyway, and its annotation also keeps the pool from consolidating the node. The pool " +
			"is the one Karpenter's predicted placement puts the pods on. Keep such pods on on-demand " +
			"capacity (drop the toleration, or select `karpenter.sh/capacity-type: on-demand`).",
		Reported: Reporting{Review: true, Note: workloadDisruptionNote + " Reported when the prediction launches a spot " +
			"node for the annotated pods."},
	},
	{
		Code: ExpiryBlockedByDoNotDisrupt, Name: "ExpiryBlockedByDoNotDisrupt", Severity: Warning,
		Title: "Expired nodes of the pool can never finish draining: long-running pods are annotated do-not-disrupt and no terminationGracePeriod is set.",
		Help: "Expiry does not wait for `karpenter.sh/do-not-disrupt`: Karpenter deletes the expired NodeClaim and drains the " +
			"node. But the drain never evicts a pod whose annotation is active (`IsEvictable` in sigs.k8s.io/karpenter@v1.14.1 " +
			"pkg/utils/pod/scheduling.go) and still waits for it to end (`IsDrainable`: \"node drain should stall until these " +
			"pods are evicted or become terminal\"). A Job's pod ends; the pod of a Deployment, StatefulSet, ReplicaSet or " +
			"ReplicationController annotated `\"true\"` does not, so without `terminationGracePeriod` (\"If left undefined, the " +
			"controller will wait indefinitely for pods to be drained\", pkg/apis/v1/nodepool.go) the expired node stays " +
			"cordoned and paid for until someone deletes the pod. A duration value (e.g. `\"2h\"`) ends the protection and is " +
			"not reported. The pool is the one Karpenter's predicted placement puts the pods on. Set " +
			"`terminationGracePeriod` on the pool, or use a duration for the annotation.",
		Reported: Reporting{Review: true, Note: workloadDisruptionNote + " Only for pods that run until deleted (of " +
			"Deployments, StatefulSets, ReplicaSets, ReplicationControllers and DaemonSets, whose pods are drained too, and bare " +
			"Pods with `restartPolicy: Always`) whose template has the annotation `\"true\"`: a Job's pods end, and a duration " +
			"ends the protection."},
	},
}
