package main

import "github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"

// workloadDisruptionNote says where the workload-aware disruption checks (KRP411–KRP414) run
// and which placement they use.
const workloadDisruptionNote = "Only where workloads are read from manifests: `review --workloads`, the `simulate` command and " +
	"the `workloads_yaml` attribute of `karpenter_provisioning_simulation` (a warning on the element that holds the object; " +
	"the data source does not show notes, and, as for KRP302, suppressions do not apply there). The pool is the one Karpenter's predicted " +
	"placement puts the pods on (`simulate --mode optimal`: the optimal packing, and the message says so). " +
	"PodDisruptionBudgets (`policy/v1`) are read from the same manifests and match pods by namespace and selector, as the eviction API does. " +
	"Pods that tolerate the `karpenter.sh/disrupted:NoSchedule` taint (a toleration of every taint) are not drained and block nothing."

// Where the workload-aware disruption checks are reported.
var workloadDisruptionReportedBy = map[findings.Code]where{
	findings.ExpiryBlockedByPDB: {Review: true, Note: workloadDisruptionNote + " A budget is taken as blocking when its " +
		"`disruptionsAllowed` is 0 with every selected pod healthy (the disruption controller's arithmetic, percentages " +
		"rounded up); budgets that allow an eviction are not reported, although unhealthy pods can still stall a drain."},
	findings.SingleReplicaConsolidated: {Review: true, Note: workloadDisruptionNote + " A note. Only Deployments, " +
		"StatefulSets, ReplicaSets and ReplicationControllers with one replica (HPA's maxReplicas with `--hpa-max`; not when an " +
		"HPA's minReplicas is 2 or more), " +
		"without a do-not-disrupt annotation, on a pool whose `consolidateAfter` is not `Never`, that is not static " +
		"(`spec.replicas`), and whose budgets without a schedule allow Underutilized disruptions (a zero budget is KRP401)."},
	findings.ExpiryBlockedByDoNotDisrupt: {Review: true, Note: workloadDisruptionNote + " Only for Deployments, StatefulSets, " +
		"ReplicaSets and ReplicationControllers whose pod template has the annotation `\"true\"`: a Job's pods end, and a duration ends the protection."},
	findings.SpotDoNotDisrupt: {Review: true, Note: workloadDisruptionNote + " Reported when the prediction launches a spot " +
		"node for the annotated pods."},
}

func init() {
	for c, w := range workloadDisruptionReportedBy {
		reportedBy[c] = w
	}
}
