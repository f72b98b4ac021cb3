package findings

// Reporting says which parts of the project report a code. The docs (internal/findings/docgen)
// render it, and a test requires every rule to name at least one reporter. So "who reports it"
// lives next to the code's severity and text instead of in a table of its own.
type Reporting struct {
	// Plan: terraform plan reports it, on karpenter_nodepool unless Resource names another resource.
	Plan bool
	// Review: the review command reports it (and simulate, which runs the review on its input).
	Review bool
	// Resource, when set, is the resource other than karpenter_nodepool whose plan reports the
	// code; it has no per-pool suppression (the provider's checks.suppress applies).
	Resource string
	// Note is Markdown: anything a reader of the code's section needs to know beyond the help text.
	Note string
}

// workloadsNote says where workloads are read from manifests.
const workloadsNote = "Only where workloads are read from manifests: the `simulate` command, `review --workloads` and the " +
	"`workloads_yaml` attribute of `karpenter_provisioning_simulation`."

// workloadDisruptionNote says where the workload-aware disruption checks (KRP411–KRP414) run
// and which placement they use.
const workloadDisruptionNote = "Only where workloads are read from manifests: `review --workloads`, the `simulate` command and " +
	"the `workloads_yaml` attribute of `karpenter_provisioning_simulation` (a warning on the element that holds the object, " +
	"which the provider's `checks.suppress` silences; the data source does not show notes). The pool is the one Karpenter's predicted " +
	"placement puts the pods on (`simulate --mode optimal`: the optimal packing, and the message says so). " +
	"PodDisruptionBudgets (`policy/v1`) are read from the same manifests and match pods by namespace and selector, as the eviction API does. " +
	"Pods that tolerate the `karpenter.sh/disrupted:NoSchedule` taint (a toleration of every taint) are not drained and block nothing."
