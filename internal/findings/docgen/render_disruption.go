package main

import "github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"

// Where the disruption and lifecycle checks (KRP4xx) are reported; kept apart from reportedBy
// so that the groups of codes grow independently.
var disruptionReportedBy = map[findings.Code]where{
	findings.DisruptionBlocked: {Plan: true, Review: true, Note: "Reported when every reason is blocked for good, or Drifted is on " +
		"nodes that never expire (`expireAfter: Never`: image upgrades then never reach them). Blocking only consolidation, or only " +
		"drift on nodes that still expire (upgrades then arrive with expiry, a pattern for long-running jobs), is a deliberate choice " +
		"and not reported."},
	findings.BudgetScheduleIneffective: {Plan: true, Review: true, Note: "A schedule that never hits (such as February 30) is, " +
		"to Karpenter, always active, so a zero budget on it blocks disruption for good (KRP401)."},
	findings.BudgetScheduleUnparseable: {Plan: true, Review: true},
	findings.BudgetScheduleUTC: {Plan: true, Review: true, Note: "A note: a weekday (`1-5`, `mon-fri`) schedule whose hours are between 07 " +
		"and 19. In `terraform plan` it is listed in `analysis.findings`, not shown as a diagnostic."},
	findings.NodeDoNotDisrupt: {Plan: true, Review: true},
	findings.WholePoolDisruption: {Plan: true, Review: true, Note: "Only for pools without a NoSchedule or NoExecute taint that allow " +
		"on-demand capacity: the pools the cluster's ordinary workloads land on. Workloads given to the review are not read yet."},
	findings.NeverRightSized: {Plan: true, Review: true, Note: "A note, or a warning when the budgets block drift for good too. Not " +
		"reported for static pools (`spec.replicas`), which do not consolidate."},
	findings.FeatureNotRunByTarget: {Plan: true, Review: true, Note: "NodeOverlay objects are reported by the review only (the " +
		"provider has no NodeOverlay resource). Set the target with the provider's `checks = { karpenter_version = \"1.13.1\", " +
		"feature_gates = \"StaticCapacity=true\" }` or, in `.karpenter-review.yaml`, `karpenterVersion` and `featureGates` (top level or per " +
		"cluster). For Node Auto Provisioning, AKS chooses the Karpenter version and its feature gates: set them to what AKS runs."},
	findings.SubnetChanged: {Plan: true, Resource: "karpenter_aksnodeclass", Note: "On `karpenter_aksnodeclass.vnet_subnet_id`, when an update changes the subnet " +
		"of a node class in the state (the default subnet included). The review command does not compare with a prior state."},
	findings.DefaultNodePoolsRemoved: {Plan: true, Resource: "karpenter_aks_node_auto_provisioning", Note: "On `karpenter_aks_node_auto_provisioning.default_node_pools`, when an " +
		"update changes it from `Auto` to `None` with `mode = \"Auto\"`. Strict mode makes it an error; `checks = { enabled = false }` turns it off."},
}

func init() {
	for c, w := range disruptionReportedBy {
		reportedBy[c] = w
	}
}
