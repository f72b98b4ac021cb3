package findings

// The codes. New codes are appended; a code is never reused for another meaning.
const (
	APIServerRejects   Code = "KRP001"
	VersionNotServed   Code = "KRP002"
	VersionDeprecated  Code = "KRP003"
	UnknownKind        Code = "KRP004"
	Unparseable        Code = "KRP005"
	UnrenderedTemplate Code = "KRP006"
	PlanSchemaMismatch Code = "KRP007"
	DuplicateObject    Code = "KRP008"
	NamespaceIgnored   Code = "KRP009"
	UnknownField       Code = "KRP010"
	OtherCloud         Code = "KRP011"
	InputNotRead       Code = "KRP012"

	// Provisioning checks of the solver (internal/analysis), run against the SKU catalog.
	NoInstanceType       Code = "KRP101"
	FewInstanceTypes     Code = "KRP102"
	MinValuesUnmet       Code = "KRP103"
	NoLimits             Code = "KRP104"
	LimitsBelowNode      Code = "KRP105"
	UnknownLabelKey      Code = "KRP106"
	UnknownLabelValue    Code = "KRP107"
	ValueNotInRegion     Code = "KRP108"
	GPUWithoutTaint      Code = "KRP109"
	SpotWithoutFallback  Code = "KRP110"
	SingleZone           Code = "KRP111"
	PodNeverFits         Code = "KRP112"
	NodeClassAssumed     Code = "KRP113"
	UnknownRegion        Code = "KRP114"
	OnlyPenaltyPricedSKU Code = "KRP115"
	SubnetNotGranted     Code = "KRP116"
	SpotSavings          Code = "KRP117"
	KarpenterDesignCost  Code = "KRP118"
	// LimitsReservation (KRP119): the limits let one provisioning round open few NodeClaims,
	// each charged the pool's largest admissible size.
	LimitsReservation Code = "KRP119"
	// CatalogGap (KRP125): the cloud's catalog lacks data for the region (EKS: zones, prices).
	CatalogGap Code = "KRP125"

	// Checks across the objects of one cluster.
	NodeClassNotFound  Code = "KRP201"
	EqualWeightOverlap Code = "KRP202"

	// Workloads read from manifests (internal/workload) by simulate and review --workloads.
	MalformedWorkload  Code = "KRP301"
	PodWithoutRequests Code = "KRP302"
	WorkloadSkipped    Code = "KRP303"
)

var rules = []Rule{
	{
		Code: APIServerRejects, Name: "RejectedByAPIServer", Severity: Error,
		Title: "The Kubernetes API server would reject the object.",
		Help: "The object fails the OpenAPI schema or a CEL rule of the Karpenter CRD that AKS installs, checked " +
			"offline with the API server's own validators after its defaults. `kubectl apply`, Flux or Argo CD " +
			"would fail with the same message. Change the field the message names so that it satisfies the rule.",
		Reported: Reporting{Review: true, Note: "In Terraform the same validation runs on every `karpenter_nodepool` and " +
			"`karpenter_aksnodeclass`, where the plan fails with `Invalid NodePool` or `Invalid AKSNodeClass` on the " +
			"attribute concerned, and in the `*_from_yaml` functions, which fail with `The Kubernetes API server would " +
			"reject this manifest`; without a code. It always runs and cannot be suppressed."},
	},
	{
		Code: VersionNotServed, Name: "APIVersionNotServed", Severity: Error,
		Title: "The API version is not served by the Karpenter CRDs the cluster runs.",
		Help: "Older Karpenter API versions (for example karpenter.sh/v1beta1) were removed; the API server " +
			"answers `no matches for kind`. Migrate the object to the served version (NodePool: karpenter.sh/v1, " +
			"AKSNodeClass: karpenter.azure.com/v1beta1) following the Karpenter v1 migration guide. A karpenter.sh/v1beta1 " +
			"NodePool is checked as Karpenter's v1 conversion turns it into v1 (expireAfter moves into the template, " +
			"WhenUnderutilized becomes WhenEmptyOrUnderutilized with consolidateAfter 0s, nodeClassRef names a group, kubelet " +
			"settings move to the AKSNodeClass), so the message lists what moves and the other findings are about the converted pool.",
		Reported: Reporting{Review: true, Note: "Terraform resources always write the served version."},
	},
	{
		Code: VersionDeprecated, Name: "APIVersionDeprecated", Severity: Warning,
		Title: "The API version is deprecated.",
		Help: "The version is still served but will be removed by a later Karpenter release. Move the object to " +
			"the storage version before upgrading.",
		Reported: Reporting{Review: true},
	},
	{
		Code: UnknownKind, Name: "UnknownKarpenterKind", Severity: Error,
		Title: "The apiVersion names a Karpenter group, but no Karpenter CRD defines the kind.",
		Help: "Usually a typo in `kind` or a kind in the wrong group: NodePool is karpenter.sh/v1 and " +
			"AKSNodeClass is karpenter.azure.com/v1beta1. The API server would answer `no matches for kind`.",
		Reported: Reporting{Review: true},
	},
	{
		Code: Unparseable, Name: "UnparseableInput", Severity: Error,
		Title: "The input cannot be parsed.",
		Help: "The YAML or JSON is malformed, or a document is not an object. Nothing in that document was " +
			"reviewed; the rest of the input was. Fix the syntax at the line given. Documents are cut where kubectl " +
			"cuts them (a line starting with --- and followed by nothing but spaces or a comment); a --- line followed by " +
			"content, and a document after a ... end marker with no --- before it (which kubectl would silently drop), are this finding.",
		Reported: Reporting{Review: true, Note: "`nodepool_from_yaml` and `aksnodeclass_from_yaml` fail with a function error instead."},
	},
	{
		Code: UnrenderedTemplate, Name: "UnrenderedTemplate", Severity: Error, Alternatives: []Severity{Note},
		Title: "The file is a template, not a manifest, and was not reviewed.",
		Help: "The document does not parse as YAML because of Go template actions (in double braces); without them it would. " +
			"Helm and other Go templates are only YAML once rendered. Review the rendered output instead, e.g. " +
			"`helm template RELEASE CHART | terraform-provider-karpenter review -`. What was not reviewed counts against " +
			"--fail-on: exclude the chart in .karpenter-review.yaml, or pass --allow-templates to report it as a note. " +
			"A document that parses is reviewed as it is, braces and all; one that does not parse for other reasons is KRP005. " +
			"A chart directory (one with a Chart.yaml) is not read file by file: the review renders it as helm template does " +
			"(--helm-values, --helm-set), and a chart that fails to render (a template error, a dependency missing from charts/, " +
			"values its schema rejects) is this finding at the file and line Helm names.",
		Reported: Reporting{Review: true},
	},
	{
		Code: PlanSchemaMismatch, Name: "PlanSchemaMismatch", Severity: Warning,
		Title: "The Terraform plan has attributes this version of the provider does not know.",
		Help: "The plan was made with another version of terraform-provider-karpenter, whose CRDs differ. Those " +
			"attributes were not reviewed. Run the review with the same provider version as the plan.",
		Reported: Reporting{Review: true},
	},
	{
		Code: DuplicateObject, Name: "DuplicateObject", Severity: Error,
		Title: "Two objects of the same kind and name belong to one cluster.",
		Help: "NodePools and AKSNodeClasses are cluster-scoped, so the second one overwrites the first (or the " +
			"GitOps tool refuses both). Rename one, or map the files to different clusters in .karpenter-review.yaml. " +
			"Workloads read from manifests are the same within a namespace: the first one is simulated.",
		Reported: Reporting{Review: true},
	},
	{
		Code: NamespaceIgnored, Name: "NamespaceIgnored", Severity: Note,
		Title: "A cluster-scoped object sets metadata.namespace, which the API server ignores.",
		Help: "NodePools and AKSNodeClasses are cluster-scoped: the API server drops the namespace (kubectl, Flux and " +
			"Argo CD send the object without it), so the object is checked as any other. Remove the namespace, or " +
			"leave it when a Kustomize `namespace:` adds it to every document.",
		Reported: Reporting{Review: true, Note: "Terraform resources have no namespace attribute for cluster-scoped kinds."},
	},
	{
		Code: UnknownField, Name: "UnknownField", Severity: Warning,
		Title: "The object has a field the CRD does not define; the API server drops it.",
		Help: "The API server prunes fields its structural schema does not know and only answers `unknown field` as a " +
			"warning, so the intent behind the field (an image pin, disk encryption, an expiry) is silently lost. Often a " +
			"field of an older API version (v1beta1) that moved in v1: the message says where. Move or remove the field.",
		Reported: Reporting{Review: true, Note: "Terraform resources have an attribute for every field the CRD defines and " +
			"no other, so an unknown field is a configuration error there."},
	},
	{
		Code: OtherCloud, Name: "OtherCloud", Severity: Note,
		Title: "The object targets Karpenter on a cloud this build does not serve and was not checked against a catalog.",
		Help: "A NodePool whose nodeClassRef names a node class of a cloud other than AKS and EKS (Google Cloud's " +
			"karpenter.k8s.gcp) runs on that cloud's Karpenter. Checks against the Azure or EC2 catalog would cite sizes and " +
			"prices that do not apply, so they are skipped; the API server's validation of the NodePool still runs. " +
			"EKS pools (an EC2NodeClass reference) are reviewed against the EC2 catalog.",
		Reported: Reporting{Review: true, Note: "`terraform plan` fails on a `karpenter_nodepool` whose `template.node_class_ref` " +
			"names another kind than AKSNodeClass: this provider targets AKS."},
	},
	{
		Code: InputNotRead, Name: "InputNotRead", Severity: Error,
		Title: "An input was refused and not reviewed.",
		Help: "The review reads only regular files inside the reviewed tree (the working directory, the config " +
			"file's directory and the paths given), at most 8 MiB each and 64 MiB in all by default: in CI on a pull " +
			"request the tree is untrusted, and a symlink to /dev/zero, a FIFO or a path like ../../etc/passwd must " +
			"neither exhaust the runner nor be read. The message says which rule refused the file. Fix the input, or " +
			"pass --allow-outside-root, --max-file-bytes or --max-total-bytes when the input is intended.",
		Reported: Reporting{Review: true},
	},
	{
		Code: NoInstanceType, Name: "NoInstanceType", Severity: Error,
		Title: "No instance type satisfies the NodePool's requirements.",
		Help: "Karpenter cannot launch any node for the pool in the region: the requirements, the node class and the " +
			"region's offerings exclude every instance type (Azure VM size on AKS, EC2 instance type on EKS). Pods that need this pool stay Pending. Relax the requirement " +
			"the message names.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: FewInstanceTypes, Name: "FewInstanceTypes", Severity: Warning,
		Title: "Very few instance types satisfy the NodePool.",
		Help: "With only a handful of instance types Karpenter has little room to bin-pack, to find capacity when a size is " +
			"out of stock, or to consolidate. Allow more families, generations or sizes.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: MinValuesUnmet, Name: "MinValuesUnmet", Severity: Error,
		Title: "A requirement's minValues cannot be met.",
		Help: "Karpenter refuses to launch when fewer distinct values than minValues remain among the admissible " +
			"instance types. Lower minValues or allow more values.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: NoLimits, Name: "NoLimits", Severity: Warning,
		Title: "The NodePool has no limits.",
		Help: "Without spec.limits Karpenter keeps adding nodes for as long as pods are pending, so a runaway " +
			"deployment or a scheduling bug scales the cluster (and the bill) without bound. Set limits such as " +
			"cpu and memory to the most the pool should ever hold.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: LimitsBelowNode, Name: "LimitsBelowNode", Severity: Error,
		Title: "The limits are smaller than every admissible node.",
		Help: "Karpenter does not launch a node that would exceed the pool's limits, so a pool whose limits are below " +
			"its smallest admissible size never launches anything. Raise the limits or allow smaller sizes.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: UnknownLabelKey, Name: "UnknownLabelKey", Severity: Warning,
		Title: "A requirement uses a well-known label key that does not exist.",
		Help: "Keys in the Karpenter, Kubernetes and cloud provider domains (karpenter.azure.com on AKS, karpenter.k8s.aws " +
			"on EKS) are a fixed set; an unknown one is usually a typo, and no node will ever carry it. A key of the other " +
			"cloud's provider (karpenter.k8s.aws/instance-family on an AKS pool) is only a custom label there: the message " +
			"names the key of the same role on the pool's cloud. Use the key the message suggests.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: UnknownLabelValue, Name: "UnknownLabelValue", Severity: Warning,
		Title: "A requirement allows a value that no instance type has.",
		Help: "No instance type in any region carries the value, so it only narrows the requirement to nothing. It is " +
			"usually a typo; use the value the message suggests.",
		Reported: Reporting{Plan: true, Review: true,
			Note: "Without a provider `region` the value is compared with every region of the catalog."},
	},
	{
		Code: ValueNotInRegion, Name: "ValueNotInRegion", Severity: Warning,
		Title: "A requirement allows a value that is not offered in the region.",
		Help: "The value exists, but no instance type offered in the cluster's region carries it, so it does not help " +
			"there. Check the region or drop the value.",
		Reported: Reporting{Plan: true, Review: true, Note: "Only when a region is set (provider `region`, `--region` or the review configuration)."},
	},
	{
		Code: GPUWithoutTaint, Name: "GPUWithoutTaint", Severity: Warning,
		Title: "The NodePool admits GPU instance types but has no taint.",
		Help: "Without a taint ordinary pods land on expensive GPU nodes and keep them alive. Taint the pool (e.g. " +
			"nvidia.com/gpu:NoSchedule) or exclude GPU sizes.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: SpotWithoutFallback, Name: "SpotWithoutFallback", Severity: Warning,
		Title: "A spot-only NodePool has no on-demand pool to fall back to.",
		Help: "When spot capacity is reclaimed or unavailable, pods that only this pool can take stay Pending. Allow " +
			"on-demand in the pool or add a lower-weight on-demand pool for the same pods.",
		Reported: Reporting{Review: true, Note: "It needs every NodePool of the cluster at once, while the provider plans " +
			"one pool at a time, so `terraform plan` does not report it. To check a Terraform configuration, review its plan: " +
			"`terraform show -json plan.out > plan.json && terraform-provider-karpenter review plan.json`."},
	},
	{
		Code: SingleZone, Name: "SingleZone", Severity: Warning,
		Title: "All admissible capacity is in one availability zone.",
		Help: "A zone outage or a capacity shortage in that zone stops the pool. Allow sizes or zones that spread " +
			"over several zones.",
		Reported: Reporting{Plan: true, Review: true, Note: "Only when a region is set: zones are per region."},
	},
	{
		Code: PodNeverFits, Name: "PodNeverFits", Severity: Error,
		Title: "The largest pod the pool must run fits on no admissible node.",
		Help: "After kubelet and system reservations no admissible size has room for the declared largest pod. " +
			"Allow larger sizes or lower the pod's requests.",
		Reported: Reporting{Plan: true, Note: "Only for pools that declare `checks = { largest_pod = { cpu = \"14\", memory = \"60Gi\" } }`."},
	},
	{
		Code: NodeClassAssumed, Name: "NodeClassAssumed", Severity: Note,
		Title: "The node class is not known; its defaults were assumed.",
		Help: "The checks that depend on the node class (the AKSNodeClass's image family, OS disk and max pods; the " +
			"EC2NodeClass's AMI family, kubelet and block devices) used the CRD's defaults because the referenced node " +
			"class was not available to them.",
		Reported: Reporting{Plan: true, Note: "A note: it is listed in `analysis.findings` and `analysis.node_class` says so, " +
			"but it is not shown as a diagnostic. Manage the AKSNodeClass in the same configuration and reference it " +
			"(`name = karpenter_aksnodeclass.default.name`) so that it is planned before the pool. The review command says " +
			"the same in its summary and reports a node class missing from the input as KRP201."},
	},
	{
		Code: UnknownRegion, Name: "UnknownRegion", Severity: Error,
		Title: "The region is not in the pool's cloud's catalog.",
		Help: "Provisioning checks need the region's instance types and prices. Use the region's ARM name on AKS (e.g. " +
			"westeurope) or the AWS region on EKS (e.g. us-east-1; the EC2 catalog knows the regions it has on-demand or spot prices for).",
		Reported: Reporting{Plan: true, Review: true, Note: "The review command rejects an unknown `--region` or `region:` in " +
			"`.karpenter-review.yaml` as a usage error (exit code 2); it reports KRP114 for a region read from a plan's provider configuration. " +
			"The provider rejects an unknown `region` the same way, once, on that attribute (\"Unknown region\", with the nearest regions); " +
			"a pool reports KRP114 for its `cluster.region`, or for a region its cloud's catalog lacks."},
	},
	{
		Code: OnlyPenaltyPricedSKU, Name: "OnlyPenaltyPricedSKU", Severity: Warning,
		Title: "The admissible VM sizes have no price in the region.",
		Help: "Karpenter gives sizes without a known price a penalty price and avoids them, so the pool rarely gets " +
			"the sizes it allows. Allow sizes that are priced in the region.",
		Reported: Reporting{Plan: true, Review: true},
	},
	{
		Code: SubnetNotGranted, Name: "SubnetNotGranted", Severity: Warning,
		Title: "The AKSNodeClass uses a subnet that the NAP resource's Network Contributor grants do not cover.",
		Help: "NAP creates the node network interfaces in the node class's vnetSubnetID as the cluster identity, which " +
			"needs Network Contributor on the subnet or its VNet; without it nodes fail to launch. Reported by the provider " +
			"when a karpenter_aks_node_auto_provisioning resource of the same provider configuration is planned before the " +
			"node class (depends_on) and its network_contributor_scopes cover neither. Add the subnet or its VNet to the scopes, " +
			"unless the role is granted elsewhere.",
		Reported: Reporting{Plan: true, Resource: "karpenter_aksnodeclass", Note: "On `karpenter_aksnodeclass.vnet_subnet_id`, when a " +
			"`karpenter_aks_node_auto_provisioning` resource of the same provider configuration is planned before the node " +
			"class (`depends_on`) with `network_contributor_scopes` known at plan time. The review command does not see grants."},
	},
	{
		Code: SpotSavings, Name: "SpotSavings", Severity: Note,
		Title: "An on-demand-only pool would cost less as spot with on-demand fallback.",
		Help: "The pool allows only on-demand capacity, yet its sizes have spot offerings. The note prices the same sizes " +
			"with spot allowed too: the Azure provider then launches spot whenever it is cheaper and on-demand when spot is " +
			"unavailable. It assumes that the pool's pods may be interrupted (no karpenter.sh/do-not-disrupt annotation, " +
			"disruption budgets that allow eviction, tolerations of any taint a spot pool carries), which the plan cannot see; " +
			"spot VMs can be evicted at 30 seconds' notice. Not reported when another pool of the cluster already allows spot " +
			"for the same pods (review), for static pools, or when the pool's nodes are marked do-not-disrupt.",
		Reported: Reporting{Plan: true, Review: true, Note: "A note: in `terraform plan` it is listed in `analysis.findings`, not shown as " +
			"a diagnostic. The review command leaves it out when another NodePool of the cluster allows spot for the same pods."},
	},
	{
		Code: KarpenterDesignCost, Name: "KarpenterDesignCost", Severity: Note,
		Title: "Karpenter would launch nodes that cost more than 10 % above the optimum, and a NodePool edit verified with its decision costs less.",
		Help: "Karpenter packs pending pods greedily onto the fewest NodeClaims and launches the cheapest size that holds " +
			"each one; on a wide pool that can mean a few very large nodes. When the cost of Karpenter's decision (as the " +
			"emulation of its scheduler predicts it: `simulate --mode both`, `review --workloads`) exceeds the cheapest packing " +
			"found by more than 10 %, a bounded set of edits is tried per pool (cap `karpenter.azure.com/sku-cpu`, on EKS " +
			"`karpenter.k8s.aws/instance-cpu`, with `Lt` 9, 17, 33 or 65; allow spot on an on-demand-only pool; drop a " +
			"`sku-family` restriction, on EKS an `instance-family` or `instance-category` one), at most 16, each by " +
			"re-running Karpenter's decision with the edit. Where Karpenter's steady state was computed (`simulate`, " +
			"`review --workloads --steady-state`, the data source's `steady_state = true`), that state is judged, with and " +
			"without each edit: provisioning rounds, then emptiness, drift and consolidation, emulated on a simulated clock; " +
			"elsewhere Karpenter's first round is. The message says which. The note gives the cheapest edit that leaves no workload with more " +
			"pending pods than before, as the requirement to add in YAML and in HCL, with Karpenter's cost after it and the " +
			"saving. Costs are list prices for the pods read; an edit that allows spot assumes the pods tolerate eviction. " +
			"The optimum is a packing, not what Karpenter would do: the advised cost is Karpenter's.",
		Reported: Reporting{Review: true, Note: "Reported by `simulate --mode both` and `review --workloads` (which runs both modes), on the " +
			"requirements of the NodePool it edits; the `simulate` JSON report has it as `advice` per cluster, with every edit tried. The " +
			"`karpenter_provisioning_simulation` data source gives the same edit in its `advice` attribute (`mode = \"both\"`)."},
	},
	{
		Code: LimitsReservation, Name: "LimitsReservation", Severity: Warning,
		Title: "The limits let one provisioning round open fewer than three NodeClaims of any admissible size.",
		Help: "Karpenter cannot know which size a new NodeClaim will launch as, so its scheduler charges each one against the " +
			"pool's limits with the largest capacity among the sizes it may still become (`subtractMax` in " +
			"sigs.k8s.io/karpenter's provisioning scheduler), and gives the next NodeClaim only the sizes that fit in what is left. " +
			"A fresh NodeClaim may become any admissible size within the limits, so a round opens floor(limit ÷ largest size) " +
			"NodeClaims of any size, per limited resource (cpu, memory, `nvidia.com/gpu`, pods, ...; `nodes` is not charged this " +
			"way), and after them only smaller ones. Pods that need more nodes than that in one round (a topology spread over " +
			"zones or hostnames, pod anti-affinity, more pods than a node's max pods) stay pending, although the limit could hold " +
			"them, until the launched nodes report their real, usually much smaller, capacity and a later round places them: " +
			"scale-out takes several launch cycles instead of one. The finding is raised when that number is below three, the " +
			"availability zones of a zonal Azure or AWS region: a zone-spread workload needs a NodeClaim in each zone in the " +
			"same round. A pool whose limit holds three of its largest nodes is not reported. The message names the limited " +
			"resource with the least room, the largest admissible size and its capacity, the NodeClaims a round may open and " +
			"what is left after them. Cap the size (`karpenter.azure.com/sku-cpu Lt N` on AKS, `karpenter.k8s.aws/instance-cpu " +
			"Lt N` on EKS, the GPU count for a GPU limit; the fix gives the loosest cap that lets three open) if the pool's pods " +
			"fit on the smaller sizes, or raise the limit to three times the largest size it then admits. Three NodeClaims are " +
			"what a zone spread needs, not what every workload needs: a batch of more pods than three nodes' max pods wants a " +
			"tighter cap, which `simulate --mode both` (KRP118) finds and verifies against the workloads. Limits smaller than " +
			"every admissible size are KRP105 instead.",
		Reported: Reporting{Plan: true, Review: true, Note: "On `limits` (`spec.limits`). The `karpenter_provisioning_simulation` data " +
			"source reports it too, on the element of `nodepools` (not with `mode = \"optimal\"`). `simulate` and the data source show " +
			"the effect on a workload: the pods Karpenter leaves pending in the round."},
	},
	{
		Code: CatalogGap, Name: "CatalogGap", Severity: Note,
		Title: "The cloud's catalog lacks data for the region that some checks need.",
		Help: "On EKS the EC2 catalog is built from public data that has no availability zones at all, on-demand price " +
			"tables only for us-east-1, the GovCloud regions and cn-north-1 (in CNY), and spot prices only as a 2024-08-09 " +
			"third-party snapshot. The note says once per pool what is missing for its region: offerings are then regional " +
			"(zone spread is not judged and no single-zone finding is made from instance-type data), prices elsewhere are " +
			"us-east-1's (as Karpenter falls back to them) and spot prices are estimates. Nothing to fix in the pool.",
		Reported: Reporting{Plan: true, Review: true, Note: "Only for pools of a cloud whose catalog has such gaps (EKS); AKS pools never get it."},
	},
	{
		Code: NodeClassNotFound, Name: "NodeClassNotFound", Severity: Error, Alternatives: []Severity{Warning},
		Title: "The NodePool references a node class that is not in the cluster's input.",
		Help: "Karpenter does not launch nodes for a NodePool whose node class does not exist; the pool stays " +
			"NotReady. Add the AKSNodeClass, fix the name in nodeClassRef, or, if the node class is created " +
			"outside this repository (such as the `default` one AKS Node Auto Provisioning creates), list it " +
			"under externalNodeClasses in .karpenter-review.yaml.",
		Reported: Reporting{Plan: true, Review: true, Note: "In Terraform, reference the node class resource " +
			"(`name = karpenter_aksnodeclass.default.name`); a missing one is then a configuration error. With a literal name, " +
			"`terraform plan` fails when `template.node_class_ref` names another group and kind than `karpenter.azure.com`/`AKSNodeClass` " +
			"or `karpenter.k8s.aws`/`EC2NodeClass`, and warns when no `karpenter_aksnodeclass` (`karpenter_ec2nodeclass`) planned before the " +
			"pool has the name, it is not the AKSNodeClass `default` (EKS creates no default class), and the plan does not find it in the cluster (it may be created outside the plan, or later in it). The review treats `default` as created by AKS Node Auto Provisioning unless " +
			"`.karpenter-review.yaml` says `selfHosted: true`, a reviewed plan sets `karpenter_aks_node_auto_provisioning` to " +
			"`mode = \"Manual\"`, or the input defines it."},
	},
	{
		Code: EqualWeightOverlap, Name: "EqualWeightOverlap", Severity: Warning, Alternatives: []Severity{Note},
		Title: "Two NodePools with the same weight can launch the same nodes.",
		Help: "Their requirements can be met by the same node and they carry the same taints, so they compete " +
			"for the same pods. Karpenter tries NodePools of equal weight in reverse alphabetical order of their " +
			"names, so which one serves a pod depends on naming. Give the preferred pool a higher weight, or make " +
			"the requirements exclusive.",
		Reported: Reporting{Review: true, Note: "A note, not a warning, when a weight and taint set holds so many pools that the review " +
			"compares their requirements only in part (pools kept apart by no In requirement): pools that compete may then be missing."},
	},
	{
		Code: MalformedWorkload, Name: "MalformedWorkload", Severity: Error,
		Title: "A workload manifest is not a valid object of its kind.",
		Help: "A Deployment, StatefulSet, Job, Pod or other workload has a field of the wrong type (often an unquoted " +
			"YAML 1.1 value such as `yes` or `1.10` where the API wants a string), a quantity that is not one, an API " +
			"version Kubernetes no longer serves, lacks a required field, or sets a pod overhead its RuntimeClass does not " +
			"define. `kubectl apply` would fail; the simulation " +
			"leaves the object out and reads the rest.",
		Reported: Reporting{Review: true, Note: workloadsNote + " In Terraform it is an error on the element of `workloads_yaml`."},
	},
	{
		Code: PodWithoutRequests, Name: "PodWithoutRequests", Severity: Warning,
		Title: "A workload's pods request no CPU or no memory.",
		Help: "Karpenter sizes nodes by requests: a pod without them counts as needing nothing, so nodes are launched " +
			"too small for what it uses and it competes with its neighbours. Set `resources.requests` for cpu and " +
			"memory on its containers. A LimitRange of the namespace that is part of the input sets its defaults as the " +
			"API server would; one that is not is not seen.",
		Reported: Reporting{Review: true, Note: workloadsNote + " In Terraform it is a warning on the element of `workloads_yaml`. " +
			"`review --workloads` and `simulate` name the NodePools the prediction puts the pods on: those whose nodes are sized without the requests."},
	},
	{
		Code: WorkloadSkipped, Name: "WorkloadSkipped", Severity: Note,
		Title: "An object that may create pods was not read as a workload.",
		Help: "Its kind is not one the simulation reads (Deployment, ReplicaSet, StatefulSet, DaemonSet, " +
			"ReplicationController, Job, CronJob, Pod), for example a custom resource whose operator creates pods, or " +
			"a Pod already bound to a node. Its pods are not in the simulated cost.",
		Reported: Reporting{Review: true, Note: workloadsNote + " The data source does not show notes."},
	},
}
