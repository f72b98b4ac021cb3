package findings

// Disruption and lifecycle checks of one NodePool (internal/analysis/disruption*.go). They say
// what its budgets, expiry and annotations let Karpenter do to its nodes, and which of its
// fields the target Karpenter does not run. KRP409 and KRP410 are updates whose effect on
// running nodes only the prior state shows. Kept in their own list so that other groups can
// grow without touching it.
const (
	DisruptionBlocked         Code = "KRP401"
	BudgetScheduleIneffective Code = "KRP402"
	BudgetScheduleUnparseable Code = "KRP403"
	BudgetScheduleUTC         Code = "KRP404"
	NodeDoNotDisrupt          Code = "KRP405"
	WholePoolDisruption       Code = "KRP406"
	NeverRightSized           Code = "KRP407"
	FeatureNotRunByTarget     Code = "KRP408"

	// Changes the provider sees against the prior state at plan time.
	SubnetChanged           Code = "KRP409"
	DefaultNodePoolsRemoved Code = "KRP410"
)

var disruptionRules = []Rule{
	{
		Code: DisruptionBlocked, Name: "DisruptionBlocked", Severity: Warning,
		Title: "A disruption budget turns voluntary disruption off for good.",
		Help: "A budget with `nodes: \"0\"` (or `0%`) and no `schedule` is always active, and Karpenter applies the most " +
			"restrictive active budget (`NodePool.GetAllowedDisruptionsByReason` in sigs.k8s.io/karpenter pkg/apis/v1/nodepool.go). " +
			"Every reason it covers (all of them when `reasons` is unset) then never happens: drifted nodes keep their old image " +
			"and configuration, and consolidation never removes or right-sizes a node; only `expireAfter` (which budgets do " +
			"not gate) still replaces nodes. To block disruption outside a maintenance window, give the zero budget a " +
			"`schedule` and `duration` that leave the window open, as in Karpenter's disruption docs " +
			"(https://karpenter.sh/docs/concepts/disruption/#disruption-budgets).",
		Reported: Reporting{Plan: true, Review: true, Note: "Reported when every reason is blocked for good, or Drifted is on " +
			"nodes that never expire (`expireAfter: Never`: image upgrades then never reach them). Blocking only consolidation, or only " +
			"drift on nodes that still expire (upgrades then arrive with expiry, a pattern for long-running jobs), is a deliberate choice " +
			"and not reported."},
	},
	{
		Code: BudgetScheduleIneffective, Name: "BudgetScheduleIneffective", Severity: Warning,
		Title: "A scheduled disruption budget is never active, or always active.",
		Help: "Karpenter treats a budget as active when a `schedule` hit lies within the past `duration` " +
			"(`Budget.IsActive`, evaluated in UTC). The check runs that function over the schedule's hits: a budget that is " +
			"never active (a date that never comes, a `duration` of 0) never limits anything, and one whose duration covers " +
			"the whole period between hits is the same as a budget without a schedule. Shorten or lengthen the duration, or " +
			"fix the schedule.",
		Reported: Reporting{Plan: true, Review: true, Note: "A schedule that never hits (such as February 30) is, " +
			"to Karpenter, always active, so a zero budget on it blocks disruption for good (KRP401)."},
	},
	{
		Code: BudgetScheduleUnparseable, Name: "BudgetScheduleUnparseable", Severity: Error,
		Title: "Karpenter cannot parse a budget's schedule and blocks all voluntary disruption of the pool.",
		Help: "The CRD's pattern accepts any five space-separated fields, but Karpenter parses the schedule with " +
			"`TZ=UTC` prepended (`Budget.IsActive`). A schedule it cannot parse (a `CRON_TZ=`/`TZ=` prefix, a sixth field, " +
			"an out-of-range value) fails closed: `MustGetAllowedDisruptions` returns 0 for every reason, so no node of the " +
			"pool is ever drifted or consolidated. Write a standard five-field cron expression in UTC.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: BudgetScheduleUTC, Name: "BudgetScheduleUTC", Severity: Note,
		Title: "A budget's schedule looks like local business hours, but Karpenter reads it in UTC.",
		Help: "Karpenter evaluates every budget schedule in UTC and does not support time zones (the `schedule` field's " +
			"documentation in the NodePool CRD). A weekday schedule at office hours applies at those hours UTC, which is " +
			"one or more hours off from most local clocks and shifts with daylight saving time. Convert the hours to UTC.",
		Reported: Reporting{Plan: true, Review: true, Note: "A note: a weekday (`1-5`, `mon-fri`) schedule whose hours are between 07 " +
			"and 19. In `terraform plan` it is listed in `analysis.findings`, not shown as a diagnostic."},
	},
	{
		Code: NodeDoNotDisrupt, Name: "NodeDoNotDisrupt", Severity: Warning,
		Title: "The pool marks every node karpenter.sh/do-not-disrupt.",
		Help: "`spec.template.metadata.annotations` are copied to each node. Karpenter never chooses a node annotated " +
			"`karpenter.sh/do-not-disrupt: \"true\"` for drift or consolidation (`StateNode.ValidateNodeDisruptable` in " +
			"sigs.k8s.io/karpenter pkg/controllers/state), whatever `terminationGracePeriod` says, so image upgrades and " +
			"configuration changes never roll and no node is right-sized; only `expireAfter` replaces the nodes. Put the " +
			"annotation on the pods that must not be interrupted instead, and bound their protection with " +
			"`terminationGracePeriod` (https://karpenter.sh/docs/concepts/disruption/#pod-level-controls).",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: WholePoolDisruption, Name: "WholePoolDisruption", Severity: Warning,
		Title: "The budgets let Karpenter disrupt every node of the pool at once.",
		Help: "With no always-active budget below 100% for the reason (a budget that allows `100%`, or budgets that do not " +
			"cover the reason at all, which Karpenter reads as unlimited), an image rollout (Drifted) or a consolidation " +
			"pass (Underutilized) may replace all nodes in one go. On a pool without taints that allows on-demand capacity " +
			"the ordinary workloads of the cluster run there, and they lose all their nodes at the same time; PodDisruptionBudgets " +
			"still apply to evictions, but workloads without one do not. Add a budget such as `nodes: \"10%\"` (the CRD's default).",
		Reported: Reporting{Plan: true, Review: true, Note: "Only for pools without a NoSchedule or NoExecute taint that allow " +
			"on-demand capacity: the pools the cluster's ordinary workloads land on. Workloads given to the review are not read yet."},
	},
	{
		Code: NeverRightSized, Name: "NeverRightSized", Severity: Note, Alternatives: []Severity{Warning},
		Title: "Nodes of the pool are never right-sized.",
		Help: "With `consolidationPolicy: WhenEmpty` Karpenter only removes nodes that run no pods, and with " +
			"`expireAfter: Never` nodes never expire, so a node launched for a burst keeps its size for as long as one pod " +
			"remains on it; only drift (a change of the pool's template or node class, or a new node image) replaces it. " +
			"When drift is blocked too it is a warning: the nodes are then never replaced at all. Use " +
			"`WhenEmptyOrUnderutilized` (or `Balanced`) or a finite `expireAfter` if cost matters more than stability.",
		Reported: Reporting{Plan: true, Review: true, Note: "A note, or a warning when the budgets block drift for good too. Not " +
			"reported for static pools (`spec.replicas`), which do not consolidate."},
	},
	{
		Code: FeatureNotRunByTarget, Name: "FeatureNotRunByTarget", Severity: Warning,
		Title: "The pool uses a feature the target Karpenter does not run.",
		Help: "The API server accepts the field, but the Karpenter the cluster runs ignores it or cannot act on it: " +
			"`consolidationPolicy: Balanced` needs Karpenter 1.14 (kubernetes-sigs/karpenter#2962), the `Gte`/`Lte` " +
			"operators Karpenter 1.9 (kubernetes-sigs/karpenter#2674), `spec.replicas` (static capacity) the " +
			"`StaticCapacity` feature gate and NodeOverlay objects the `NodeOverlay` gate, both off by default in Karpenter " +
			"(pkg/operator/options) and in the Azure provider's chart (v1.14.2 charts/karpenter/values.yaml). The target is set with the provider's `checks.karpenter_version` and " +
			"`checks.feature_gates` or `karpenterVersion` and `featureGates` in .karpenter-review.yaml, and defaults to the " +
			"pinned Karpenter and the chart's gates.",
		Reported: Reporting{Plan: true, Review: true, Note: "NodeOverlay objects are reported by the review only (the " +
			"provider has no NodeOverlay resource). Set the target with the provider's `checks = { karpenter_version = \"1.13.1\", " +
			"feature_gates = \"StaticCapacity=true\" }` or, in `.karpenter-review.yaml`, `karpenterVersion` and `featureGates` (top level or per " +
			"cluster). For Node Auto Provisioning, AKS chooses the Karpenter version and its feature gates: set them to what AKS runs."},
	},
	{
		Code: SubnetChanged, Name: "SubnetChanged", Severity: Warning,
		Title: "The AKSNodeClass moves its nodes to another subnet.",
		Help: "`vnetSubnetID` is part of the AKSNodeClass hash in the Azure provider (v1.14.2: the field has no " +
			"`hash:\"ignore\"`), so changing it marks every NodeClaim of the node class drifted (`NodeClassDrift`) and " +
			"Karpenter replaces all their nodes in the new subnet, as fast as the NodePools' disruption budgets allow. " +
			"Earlier NAP releases did not support a change between two valid subnets at all: Karpenter reported subnet drift " +
			"and launched no node until the old subnet was restored (AKS documentation, \"Subnet drift behavior\" in " +
			"node auto provisioning networking). Grant the cluster identity Network Contributor on the new subnet and make " +
			"sure it has addresses for every replacement node first, or create a new AKSNodeClass and NodePool in the new " +
			"subnet and move the workloads.",
		Reported: Reporting{Plan: true, Resource: "karpenter_aksnodeclass", Note: "On `karpenter_aksnodeclass.vnet_subnet_id`, when an update changes the subnet " +
			"of a node class in the state (the default subnet included). The review command does not compare with a prior state."},
	},
	{
		Code: DefaultNodePoolsRemoved, Name: "DefaultNodePoolsRemoved", Severity: Warning,
		Title: "Switching default_node_pools from Auto to None deletes NAP's default NodePools.",
		Help: "With `mode = \"Auto\"`, AKS owns the `default` and `system-surge` NodePools while `defaultNodePools` is " +
			"`Auto`. Changing it to `None` on an existing cluster makes AKS delete them, which drains and deletes their " +
			"nodes (the AKS API's description of `nodeProvisioningProfile.defaultNodePools`). Pods on those nodes are " +
			"rescheduled only if another NodePool can take them. Plan the NodePools that replace them first, apply, and " +
			"switch to `None` once they have capacity.",
		Reported: Reporting{Plan: true, Resource: "karpenter_aks_node_auto_provisioning", Note: "On `karpenter_aks_node_auto_provisioning.default_node_pools`, when an " +
			"update changes it from `Auto` to `None` with `mode = \"Auto\"`. Strict mode makes it an error; `checks = { enabled = false }` turns it off."},
	},
}
