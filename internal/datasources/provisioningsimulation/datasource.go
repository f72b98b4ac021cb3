package provisioningsimulation

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	workloadreader "github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// New is the data source constructor for the provider.
func New() datasource.DataSource { return &dataSource{} }

type dataSource struct{ data *providerdata.Data }

func (d *dataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_provisioning_simulation"
}

func (d *dataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data, ok := req.ProviderData.(*providerdata.Data); ok {
		d.data = data
	}
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	cstr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	cnum := func(desc string) schema.Float64Attribute {
		return schema.Float64Attribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Predicts, offline, what Karpenter on AKS or EKS would launch for a set of pending pods across NodePools, and what the " +
			"cheapest packing of the same pods on the same NodePools would cost. `mode = \"karpenter\"` (default) emulates Karpenter's own " +
			"provisioning decision (v1.14 scheduler: pod order, NodePools by weight, per-NodeClaim instance-type options, daemon overhead, limits, " +
			"minValues, topology spread, pod anti-affinity, relaxed preferences; then the Azure provider's launch choice: lowest price, spot before " +
			"on-demand, zonal before regional). `mode = \"optimal\"` reports the optimum instead: the cheapest packing found, with a certified " +
			"lower bound (`lower_bound`) — not what Karpenter would do. The optimum keeps requests, node selectors, the first required node " +
			"affinity term, tolerations, NodePool order and limits, `DoNotSchedule` spreads over zones (split evenly; the bound holds for every " +
			"split maxSkew allows) and over `kubernetes.io/hostname` (at most maxSkew per node), and required anti-affinity over " +
			"`kubernetes.io/hostname` on a workload's own pods (one per node; `workloads_yaml` only); it ignores pod affinity, anti-affinity over " +
			"zones or other keys, preferred terms, `ScheduleAnyway` spreads and `minDomains`, and counts spreads and anti-affinity among the " +
			"workload's own pods only (a warning names the workloads). `mode = \"both\"` reports Karpenter's decision at the top level, the optimum " +
			"under `optimal`, and `design_cost`, what this NodePool design costs per hour over the optimum, and, when Karpenter's cost exceeds the " +
			"optimum by more than 10 %, `advice`: the cheapest NodePool edit verified by re-running Karpenter's decision (KRP118). `method` says which " +
			"the top-level figures are; `currency` what they are in. The guide \"What will Karpenter launch?\" walks through a wide pool (Karpenter USD 152.79/h with 332 pods " +
			"pending in its first round, optimum USD 35.85/h, USD 44.06/h with the advised `sku-cpu` cap and none pending). With `steady_state = true`, " +
			"`karpenter_steady_state` is Karpenter's emulated steady state (there USD 155.79/h on 11 nodes, after one Underutilized replacement) and `advice` " +
			"judges it (USD 42.06/h with the same cap). Where the embedded catalog " +
			"lists no zones of a size, it is assumed offered in every zone of the region: such a node's `zone_assumed` is true and a warning names the sizes.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{Optional: true, MarkdownDescription: "Region the nodes are priced in (Azure, or AWS for EKS pools); defaults to the provider's `region`. One of them is required."},
			"nodepools": schema.ListAttribute{
				Required: true, ElementType: types.StringType,
				MarkdownDescription: "NodePool manifests (YAML or JSON), e.g. `[file(\"pools/general.yaml\")]`; each is validated by the CRD's rules. " +
					"With Karpenter's prediction, an element whose limits let one provisioning round open fewer than three NodeClaims of any admissible " +
					"size gets warning KRP119: the reason the prediction may leave pods pending that the limits could hold.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1)},
			},
			"aksnodeclasses": schema.ListAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "AKSNodeClass manifests the pools reference; a pool whose node class is not given is simulated with the CRD defaults.",
			},
			"ec2nodeclasses": schema.ListAttribute{
				Optional: true, ElementType: types.StringType,
				MarkdownDescription: "EC2NodeClass manifests the EKS pools (`nodeClassRef.group = \"karpenter.k8s.aws\"`) reference, as `aksnodeclasses`; " +
					"an EKS pool is priced in the AWS region given as `region`.",
			},
			"workloads_yaml":        workloadsYAMLAttribute,
			"cluster_state_yaml":    clusterStateAttribute,
			"pods_on_running_nodes": podsOnRunningNodesAttribute,
			"steady_state":          steadyStateAttribute,
			"max_pods": schema.Int64Attribute{Optional: true, Validators: []validator.Int64{int64validator.AtLeast(1)},
				MarkdownDescription: "The most pods the simulation takes (`workloads` and `workloads_yaml` together; default 150,000, Kubernetes' documented limit per cluster). " +
					"Past it the plan fails with KRP306 on the workload that crosses it, before any work: a replica count that large is usually a typo. Raise it when the count is meant."},
			"workloads": schema.ListNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Pending pods, grouped by shape. This, `workloads_yaml` or both.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":          schema.StringAttribute{Required: true, MarkdownDescription: "Name of the workload (used in the results)."},
					"count":         schema.Int64Attribute{Required: true, MarkdownDescription: "Number of pods.", Validators: []validator.Int64{int64validator.Between(1, 100000)}},
					"requests":      schema.MapAttribute{Required: true, ElementType: types.StringType, MarkdownDescription: "Resource requests per pod, e.g. `{ cpu = \"500m\", memory = \"1Gi\" }`."},
					"node_selector": schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Node selector of the pods."},
					"tolerations": schema.ListNestedAttribute{Optional: true, MarkdownDescription: "Tolerations of the pods.",
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"key":      schema.StringAttribute{Optional: true, MarkdownDescription: "Taint key (empty with operator `Exists` tolerates everything)."},
							"operator": schema.StringAttribute{Optional: true, MarkdownDescription: "`Equal` (default) or `Exists`."},
							"value":    schema.StringAttribute{Optional: true, MarkdownDescription: "Taint value."},
							"effect":   schema.StringAttribute{Optional: true, MarkdownDescription: "`NoSchedule`, `PreferNoSchedule` or `NoExecute`; empty matches all."},
						}}},
					"zone_spread_max_skew": schema.Int64Attribute{Optional: true, MarkdownDescription: "When set, the pods spread over zones with this maxSkew (DoNotSchedule)."},
				}},
			},
			"daemonset_overhead": schema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: "Requests of the DaemonSet pods on every node (for Karpenter's decision: one DaemonSet pod with these requests that tolerates every taint)."},
			"mode": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "`karpenter` (default): the top-level figures are what Karpenter would launch. `optimal`: they are the cheapest " +
					"packing found, with `lower_bound`. `both`: Karpenter's decision at the top level, the optimum under `optimal`, and `design_cost`.",
				Validators: []validator.String{stringvalidator.OneOf(simmodel.MethodKarpenter, simmodel.MethodOptimal, "both")},
			},
			"lower_bound_method": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "How `lower_bound` is computed. `lp` (default): an LP relaxation over node types with resources pooled across nodes, " +
					"milliseconds, often 5–10 % below the best packing. `configuration`: the configuration LP (fractional counts of whole node patterns, " +
					"generated by column generation and certified), within a few per cent of the best packing; tens of milliseconds to seconds. " +
					"Beyond 64 pod groups (distinct requests × scheduling options) it merges the zones of zone-spread pods (a relaxation, still a bound), " +
					"and beyond 64 after that it falls back to `lp`. Used when the optimum is computed " +
					"(`mode` `optimal` or `both`).",
				Validators: []validator.String{stringvalidator.OneOf("lp", "configuration")},
			},

			"method":      cstr("What the top-level figures are: `karpenter` (what Karpenter would launch) or `optimal` (the cheapest packing found)."),
			"node_count":  schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of nodes launched."},
			"hourly_cost": cnum("Hourly cost of the launched nodes, in `currency`."),
			"currency": cstr("ISO 4217 code of every price and cost of the result (`optimal` and `advice` included): the price table's, never converted " +
				"(`USD`; `CNY` in AWS's China regions; a replace-mode `checks.catalog_path` file may name another)."),
			"monthly_cost": cnum("Hourly cost × 730."),
			"lower_bound":  cnum("Hourly cost no packing can beat (see `lower_bound_method`); null in `mode = \"karpenter\"`, which does not compute the optimum."),
			"design_cost": cnum("`mode = \"both\"`: Karpenter's hourly cost minus the optimum's — what this NodePool design costs you per hour over the cheapest packing of the same pods. " +
				"Where Karpenter leaves pods pending that the optimum places (`scheduled_pods` differ; e.g. its limits reservation in a round), the two costs are of different pod sets and this difference says nothing about the design."),
			"optimal": schema.SingleNestedAttribute{
				Computed: true, MarkdownDescription: "`mode = \"both\"`: the optimum (method `optimal`) next to Karpenter's decision.",
				Attributes: map[string]schema.Attribute{
					"method":         cstr("`optimal`."),
					"node_count":     schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of nodes."},
					"hourly_cost":    cnum("Hourly cost, in `currency`."),
					"monthly_cost":   cnum("Hourly cost × 730."),
					"lower_bound":    cnum("Hourly cost no packing can beat (see `lower_bound_method`)."),
					"scheduled_pods": schema.Int64Attribute{Computed: true, MarkdownDescription: "Pods placed on nodes."},
					"nodes": schema.ListNestedAttribute{
						Computed: true, MarkdownDescription: "The nodes.",
						NestedObject: schema.NestedAttributeObject{Attributes: nodeAttributes(cstr, cnum)},
					},
				},
			},
			"advice": schema.SingleNestedAttribute{
				Computed: true,
				MarkdownDescription: "`mode = \"both\"`, when Karpenter's cost exceeds the optimum by more than 10 %: the cheapest of at most 16 NodePool " +
					"edits (a `karpenter.azure.com/sku-cpu` `Lt` cap of 9, 17, 33 or 65; spot allowed on an on-demand-only pool; a `sku-family` " +
					"restriction removed), each verified by re-running Karpenter's decision, that leaves no workload with more pending pods. An edit " +
					"that allows spot is the advice only when nothing else saves (it assumes the pods tolerate eviction). Null otherwise.",
				Attributes: map[string]schema.Attribute{
					"pool":                  cstr("The NodePool to edit."),
					"edit":                  cstr("The edit in words."),
					"remove":                schema.BoolAttribute{Computed: true, MarkdownDescription: "True when the requirement is to be removed; else it is added (replacing the pool's requirement on the same key and operator)."},
					"key":                   cstr("The requirement's key."),
					"operator":              cstr("The requirement's operator."),
					"values":                schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The requirement's values."},
					"assumes_interruptible": schema.BoolAttribute{Computed: true, MarkdownDescription: "True when the edit allows spot: the pods must tolerate eviction."},
					"state": cstr("The state of Karpenter's the advice judged, with and without each edit: `steady state` (with `steady_state = true`: " +
						"each edit's pools run to their own steady state) or `first round` (Karpenter's first provisioning round)."),
					"hourly_cost":    cnum("Karpenter's hourly cost with the edit, at list prices, in the state `state` names (method `karpenter`)."),
					"saving":         cnum("`hourly_cost` at the top level minus this `hourly_cost`, per hour in `currency`."),
					"saving_percent": cnum("The saving in per cent of Karpenter's cost without the edit."),
				},
			},
			"tie_breaks": schema.Int64Attribute{Computed: true, MarkdownDescription: "Method `karpenter`: how many ties Karpenter breaks at random in this " +
				"decision (it takes the first of equal alternatives in Go map order: equally loaded zones of a topology spread, the domain a pod " +
				"affinity starts, the order of a pool's daemon overhead groups). The top-level nodes break each tie by name; " +
				"`hourly_cost_range` is over Karpenter's other outcomes. Null for method `optimal`."},
			"hourly_cost_range": schema.SingleNestedAttribute{
				Computed: true,
				MarkdownDescription: "Method `karpenter`, when `tie_breaks` > 0: \"Karpenter breaks N ties randomly; its cost ranges USD min–USD max/h\" (in `currency`): the " +
					"range over the distinct outcomes of the decision re-run with other tie-breaks: every distinct outcome when the walk over the " +
					"choices (a failed try's other choices that fail it too are not walked again; one zone per class of zones the round cannot " +
					"tell apart, as the outcomes are compared without zones) ends within its budget, `exhaustive`; else the outcomes " +
					fmt.Sprintf("the walk found, a seeded sample of at most %d runs and a search toward the cheapest and the dearest outcome found: ", simulation.TieRuns) +
					"not a bound, Karpenter may land outside it. Null otherwise.",
				Attributes: map[string]schema.Attribute{
					"min":         cnum("Lowest hourly cost of the outcomes found, in `currency`: Karpenter's lowest only when `exhaustive`."),
					"max":         cnum("Highest hourly cost of the outcomes found, in `currency`: Karpenter's highest only when `exhaustive`."),
					"min_nodes":   schema.Int64Attribute{Computed: true, MarkdownDescription: "Fewest nodes."},
					"max_nodes":   schema.Int64Attribute{Computed: true, MarkdownDescription: "Most nodes."},
					"min_pending": schema.Int64Attribute{Computed: true, MarkdownDescription: "Fewest pods left pending."},
					"max_pending": schema.Int64Attribute{Computed: true, MarkdownDescription: "Most pods left pending."},
					"outcomes":    schema.Int64Attribute{Computed: true, MarkdownDescription: "Distinct outcomes found."},
					"runs":        schema.Int64Attribute{Computed: true, MarkdownDescription: "Runs of the decision the walk and the search took (`samples` apart)."},
					"expected": cnum("Expected hourly cost, in `currency`: the mean over `samples` seeded draws of Karpenter's random choices " +
						"(each tie's alternatives equally likely, repeats counted). The top-level nodes are one outcome; plan with this figure " +
						"when Karpenter's outcomes differ."),
					"samples":    schema.Int64Attribute{Computed: true, MarkdownDescription: "Draws `expected` is the mean of."},
					"exhaustive": schema.BoolAttribute{Computed: true, MarkdownDescription: "True when every distinct outcome was found (all `outcomes` of Karpenter's choices, so `min` and `max` bound its cost); false when they are the outcomes a search found."},
				},
			},
			"karpenter_steady_state": steadyStateResultAttribute(cstr, cnum),
			"cpu_utilisation":        cnum("Requested ÷ allocatable CPU over all nodes."),
			"memory_utilisation":     cnum("Requested ÷ allocatable memory over all nodes."),
			"scheduled_pods":         schema.Int64Attribute{Computed: true, MarkdownDescription: "Pods placed on nodes."},
			"price_estimated":        schema.BoolAttribute{Computed: true, MarkdownDescription: "True when some node's price is not a list (or override) price of the region: see the nodes' `price_source`."},
			"nodes": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "The nodes, in launch order (for `karpenter`, one per NodeClaim).",
				NestedObject: schema.NestedAttributeObject{Attributes: nodeAttributes(cstr, cnum)},
			},
			"unschedulable": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "Pods no pool can take, with Karpenter's reason.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"workload": cstr("Workload."),
					"count":    schema.Int64Attribute{Computed: true, MarkdownDescription: "Pods."},
					"reason":   cstr("Why."),
				}},
			},
		},
	}
}

func nodeAttributes(cstr func(string) schema.StringAttribute, cnum func(string) schema.Float64Attribute) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"pool":          cstr("NodePool that launched it."),
		"sku":           cstr("VM size."),
		"zone":          cstr("Zone (`0`: regional placement, no zone). Where Karpenter picks among equal zones at random, the first by name."),
		"zone_assumed":  schema.BoolAttribute{Computed: true, MarkdownDescription: "True when the embedded catalog has no Resource SKUs zone listing of the size in the region, so `zone` is one of the zones the size is assumed offered in (every zone of the region), not one Azure lists; a warning says so."},
		"capacity_type": cstr("`spot` or `on-demand`."),
		"hourly_price":  cnum("Hourly price, in `currency`."),
		"price_source":  cstr("Where the price comes from: `list YYYY-MM-DD`, `override…` or `estimated: …` saying how it was estimated."),
		"pods":          schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Pods per workload."},
	}
}

type model struct {
	Region            types.String      `tfsdk:"region"`
	NodePools         []string          `tfsdk:"nodepools"`
	AKSNodeClasses    []string          `tfsdk:"aksnodeclasses"`
	EC2NodeClasses    []string          `tfsdk:"ec2nodeclasses"`
	Workloads         []workloadModel   `tfsdk:"workloads"`
	WorkloadsYAML     []string          `tfsdk:"workloads_yaml"`
	ClusterStateYAML  []string          `tfsdk:"cluster_state_yaml"`
	PodsOnRunning     types.Int64       `tfsdk:"pods_on_running_nodes"`
	MaxPods           types.Int64       `tfsdk:"max_pods"`
	DaemonSetOverhead map[string]string `tfsdk:"daemonset_overhead"`
	LowerBoundMethod  types.String      `tfsdk:"lower_bound_method"`
	Mode              types.String      `tfsdk:"mode"`
	SteadyState       types.Bool        `tfsdk:"steady_state"`

	Method            types.String        `tfsdk:"method"`
	DesignCost        types.Float64       `tfsdk:"design_cost"`
	Optimal           *optimalModel       `tfsdk:"optimal"`
	Advice            *adviceModel        `tfsdk:"advice"`
	NodeCount         types.Int64         `tfsdk:"node_count"`
	HourlyCost        types.Float64       `tfsdk:"hourly_cost"`
	Currency          types.String        `tfsdk:"currency"`
	MonthlyCost       types.Float64       `tfsdk:"monthly_cost"`
	LowerBound        types.Float64       `tfsdk:"lower_bound"`
	CPUUtilisation    types.Float64       `tfsdk:"cpu_utilisation"`
	MemoryUtilisation types.Float64       `tfsdk:"memory_utilisation"`
	ScheduledPods     types.Int64         `tfsdk:"scheduled_pods"`
	PriceEstimated    types.Bool          `tfsdk:"price_estimated"`
	Nodes             []nodeModel         `tfsdk:"nodes"`
	Unschedulable     []unschedulableItem `tfsdk:"unschedulable"`
	TieBreaks         types.Int64         `tfsdk:"tie_breaks"`
	HourlyCostRange   *costRangeModel     `tfsdk:"hourly_cost_range"`
	KarpenterSteady   *steadyModel        `tfsdk:"karpenter_steady_state"`
}

type costRangeModel struct {
	Min        types.Float64 `tfsdk:"min"`
	Max        types.Float64 `tfsdk:"max"`
	MinNodes   types.Int64   `tfsdk:"min_nodes"`
	MaxNodes   types.Int64   `tfsdk:"max_nodes"`
	MinPending types.Int64   `tfsdk:"min_pending"`
	MaxPending types.Int64   `tfsdk:"max_pending"`
	Outcomes   types.Int64   `tfsdk:"outcomes"`
	Runs       types.Int64   `tfsdk:"runs"`
	Exhaustive types.Bool    `tfsdk:"exhaustive"`
	Expected   types.Float64 `tfsdk:"expected"`
	Samples    types.Int64   `tfsdk:"samples"`
}

type adviceModel struct {
	Pool                 types.String  `tfsdk:"pool"`
	State                types.String  `tfsdk:"state"`
	Edit                 types.String  `tfsdk:"edit"`
	Remove               types.Bool    `tfsdk:"remove"`
	Key                  types.String  `tfsdk:"key"`
	Operator             types.String  `tfsdk:"operator"`
	Values               []string      `tfsdk:"values"`
	AssumesInterruptible types.Bool    `tfsdk:"assumes_interruptible"`
	HourlyCost           types.Float64 `tfsdk:"hourly_cost"`
	Saving               types.Float64 `tfsdk:"saving"`
	SavingPercent        types.Float64 `tfsdk:"saving_percent"`
}

type optimalModel struct {
	Method        types.String  `tfsdk:"method"`
	NodeCount     types.Int64   `tfsdk:"node_count"`
	HourlyCost    types.Float64 `tfsdk:"hourly_cost"`
	MonthlyCost   types.Float64 `tfsdk:"monthly_cost"`
	LowerBound    types.Float64 `tfsdk:"lower_bound"`
	ScheduledPods types.Int64   `tfsdk:"scheduled_pods"`
	Nodes         []nodeModel   `tfsdk:"nodes"`
}

type workloadModel struct {
	Name         string            `tfsdk:"name"`
	Count        int64             `tfsdk:"count"`
	Requests     map[string]string `tfsdk:"requests"`
	NodeSelector map[string]string `tfsdk:"node_selector"`
	Tolerations  []tolerationModel `tfsdk:"tolerations"`
	ZoneSpread   types.Int64       `tfsdk:"zone_spread_max_skew"`
}

type tolerationModel struct {
	Key      types.String `tfsdk:"key"`
	Operator types.String `tfsdk:"operator"`
	Value    types.String `tfsdk:"value"`
	Effect   types.String `tfsdk:"effect"`
}

type nodeModel struct {
	Pool         string           `tfsdk:"pool"`
	SKU          string           `tfsdk:"sku"`
	Zone         string           `tfsdk:"zone"`
	ZoneAssumed  bool             `tfsdk:"zone_assumed"`
	CapacityType string           `tfsdk:"capacity_type"`
	HourlyPrice  float64          `tfsdk:"hourly_price"`
	PriceSource  string           `tfsdk:"price_source"`
	Pods         map[string]int64 `tfsdk:"pods"`
}

type unschedulableItem struct {
	Workload string `tfsdk:"workload"`
	Count    int64  `tfsdk:"count"`
	Reason   string `tfsdk:"reason"`
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.data == nil {
		resp.Diagnostics.AddError("Provider not configured", "The karpenter provider was not configured before use.")
		return
	}
	region := m.Region.ValueString()
	if region == "" {
		region = d.data.Region
	}
	if region == "" {
		resp.Diagnostics.AddAttributeError(path.Root("region"), "Region required", "Set region here or in the provider configuration: the simulation prices nodes in one region.")
		return
	}
	s, err := d.data.Analyzer()
	if err != nil {
		resp.Diagnostics.AddError("Cannot load the SKU catalog", err.Error())
		return
	}
	in, poolAt := d.input(ctx, m, region, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	mode := m.Mode.ValueString()
	if mode == "" {
		mode = simulation.Karpenter
	}
	if m.SteadyState.ValueBool() {
		if mode == simulation.Optimal {
			resp.Diagnostics.AddAttributeError(path.Root("steady_state"), "Steady state needs Karpenter's mode",
				"steady_state runs Karpenter to its steady state: set mode to \"karpenter\" or \"both\", or leave steady_state unset with mode = \"optimal\".")
			return
		}
		in.SteadyState = true
		if in.read != nil {
			in.PDBs = simulation.PodDisruptionBudgets(in.read)
		}
	}
	if in.state != nil {
		in.Start = simulation.Start(s, in.state, in.Input)
	}
	res, err := simulation.Simulate(ctx, s, in.Input, mode)
	var size *simulation.SizeError
	if errors.As(err, &size) {
		resp.Diagnostics.AddAttributeError(path.Root("max_pods"), "Too many pods", fmt.Sprintf("KRP306: %v.", size))
		return
	}
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("region"), "Cannot simulate", err.Error())
		return
	}
	for _, skipped := range res.Skipped {
		resp.Diagnostics.AddError("Not simulated", skipped)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	for _, a := range res.Assumptions {
		resp.Diagnostics.AddAttributeWarning(path.Root("region"), "Simulation assumption", a)
	}
	if res.Karpenter != nil {
		at := make([]path.Path, len(res.Pools))
		for i, name := range res.Pools {
			at[i] = poolAt[name]
		}
		reservationDiags(s, region, res.SimPools(), at, d.data.Checks, &resp.Diagnostics)
	}
	_, primary := res.Primary()
	disruptionDiags(in.read, res.SimPools(), primary, d.data.Checks, &resp.Diagnostics)
	m.LowerBound = types.Float64Null()
	m.DesignCost = types.Float64Null()
	m.Optimal = nil
	m.Advice = nil
	m.KarpenterSteady = nil
	if res.Settled != nil {
		m.KarpenterSteady = steadyOf(res.Settled.Before)
	}
	fill(&m, primary)
	m.PodsOnRunning = types.Int64Null()
	if in.Start != nil && res.Provisioned != nil {
		m.PodsOnRunning = types.Int64Value(0)
		if len(res.Provisioned.Rounds) > 0 {
			m.PodsOnRunning = types.Int64Value(int64(res.Provisioned.Rounds[0].OnExistingNodes))
		}
	}
	if optimum := res.Optimal; optimum != nil {
		m.LowerBound = types.Float64Value(optimum.LowerBound)
	}
	if mode == simulation.Both {
		predicted, optimum := res.Karpenter, res.Optimal
		m.DesignCost = types.Float64Value(money.Round(predicted.Currency, predicted.HourlyCost-optimum.HourlyCost))
		m.Optimal = &optimalModel{
			Method: types.StringValue(optimum.Method), NodeCount: types.Int64Value(int64(len(optimum.Nodes))),
			HourlyCost: types.Float64Value(optimum.HourlyCost), MonthlyCost: types.Float64Value(money.Round(optimum.Currency, optimum.HourlyCost*analysis.HoursPerMonth)),
			LowerBound: types.Float64Value(optimum.LowerBound), ScheduledPods: types.Int64Value(int64(optimum.ScheduledPods)),
			Nodes: nodes(optimum),
		}
		a, err := simulation.Advise(s, in.Input, res)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("mode"), "Cannot advise", err.Error())
			return
		}
		if a != nil {
			m.Advice = &adviceModel{Pool: types.StringValue(a.Edit.Pool), State: types.StringValue(a.State), Edit: types.StringValue(a.Edit.Describe()), Remove: types.BoolValue(a.Edit.Remove),
				Key: types.StringValue(a.Edit.Requirement.Key), Operator: types.StringValue(string(a.Edit.Requirement.Operator)), Values: a.Edit.Requirement.Values,
				AssumesInterruptible: types.BoolValue(a.Edit.AssumesInterruptible), HourlyCost: types.Float64Value(a.HourlyCost),
				Saving: types.Float64Value(a.Saving), SavingPercent: types.Float64Value(a.SavingPercent)}
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// input is the simulation's input from the configuration, each manifest validated on the
// element that holds it; poolAt is each NodePool's element, by name.
func (d *dataSource) input(ctx context.Context, m model, region string, diags *diag.Diagnostics) (in configInput, poolAt map[string]path.Path) {
	in.Region = region
	in.MaxPods = int(m.MaxPods.ValueInt64())
	in.ConfigurationBound = m.LowerBoundMethod.ValueString() == "configuration"
	for _, of := range []struct {
		attr  string
		texts []string
		kind  *kinds.Kind
	}{{"aksnodeclasses", m.AKSNodeClasses, kinds.AKSNodeClass}, {"ec2nodeclasses", m.EC2NodeClasses, kinds.EC2NodeClass}} {
		for i, text := range of.texts {
			if obj := manifest(ctx, text, of.kind.GVK, path.Root(of.attr).AtListIndex(i), diags); obj != nil {
				in.NodeClasses = append(in.NodeClasses, obj)
			}
		}
	}
	poolAt = map[string]path.Path{}
	for i, text := range m.NodePools {
		at := path.Root("nodepools").AtListIndex(i)
		obj := manifest(ctx, text, kinds.NodePool.GVK, at, diags)
		if obj == nil {
			continue
		}
		p, err := analysis.PoolFromObject(obj)
		if err != nil {
			diags.AddAttributeError(at, "Unreadable NodePool", err.Error())
			continue
		}
		in.NodePools = append(in.NodePools, obj)
		poolAt[p.Name] = at
	}
	for i, w := range m.Workloads {
		in.Workloads = append(in.Workloads, workload(w, path.Root("workloads").AtListIndex(i), diags))
	}
	in.DaemonOverhead = quantities(m.DaemonSetOverhead, path.Root("daemonset_overhead"), diags)
	in.state = clusterState(m.ClusterStateYAML, diags)
	if len(m.Workloads) == 0 && len(m.WorkloadsYAML) == 0 && in.state == nil {
		diags.AddAttributeError(path.Root("workloads"), "No workloads", "Set workloads, workloads_yaml or both (or cluster_state_yaml, whose pending pods are simulated): the simulation needs pending pods.")
	}
	if len(m.WorkloadsYAML) > 0 {
		in.read = manifestWorkloads(m.WorkloadsYAML, int(m.MaxPods.ValueInt64()), d.data.Checks, diags)
		in.Pods, in.DaemonSets = in.read.Pods, in.read.DaemonSets
	}
	return in, poolAt
}

// configInput is the simulation's input with the workloads_yaml objects it was read from, for
// the disruption checks.
type configInput struct {
	simulation.Input
	read *workloadreader.Set
	// state is the cluster_state_yaml snapshot (nil without it).
	state *clusterstate.Snapshot
}

// manifest parses and validates one manifest of the given kind, with the CRD's defaults.
func manifest(ctx context.Context, text string, gvk k8sschema.GroupVersionKind, at path.Path, diags *diag.Diagnostics) map[string]any {
	obj := map[string]any{}
	if err := yaml.Unmarshal([]byte(text), &obj); err != nil {
		diags.AddAttributeError(at, "Not a manifest", fmt.Sprintf("Attribute %s is not valid YAML or JSON: %v", at, err))
		return nil
	}
	if obj["apiVersion"] != gvk.GroupVersion().String() || obj["kind"] != gvk.Kind {
		diags.AddAttributeError(at, "Wrong kind", fmt.Sprintf("Attribute %s is a %v %v; expected %s %s.", at, obj["apiVersion"], obj["kind"], gvk.GroupVersion(), gvk.Kind))
		return nil
	}
	v, err := crdvalidate.For(gvk)
	if gvk == kinds.NodePool.GVK {
		// A NodePool is validated by the CRD of the cloud its nodeClassRef names, as in its cluster.
		v, err = crdvalidate.NodePoolFor(gvk, crdvalidate.NodePoolGroup(obj))
	}
	if err != nil {
		diags.AddAttributeError(at, "Cannot validate "+gvk.Kind, err.Error())
		return nil
	}
	if errs := v.Validate(ctx, obj); len(errs) > 0 {
		diags.AddAttributeError(at, "Invalid "+gvk.Kind, fmt.Sprintf("Attribute %s: the Kubernetes API server would reject it:\n%s", at, strings.Join(crdvalidate.Messages(errs), "\n")))
		return nil
	}
	v.Default(obj)
	return obj
}

func workload(w workloadModel, at path.Path, diags *diag.Diagnostics) simmodel.Workload {
	out := simmodel.Workload{Name: w.Name, Count: int(w.Count), NodeSelector: w.NodeSelector,
		Requests: quantities(w.Requests, at.AtName("requests"), diags), ZoneSpread: int32(w.ZoneSpread.ValueInt64())}
	for _, t := range w.Tolerations {
		out.Tolerations = append(out.Tolerations, corev1.Toleration{
			Key: t.Key.ValueString(), Operator: corev1.TolerationOperator(t.Operator.ValueString()),
			Value: t.Value.ValueString(), Effect: corev1.TaintEffect(t.Effect.ValueString()),
		})
	}
	return out
}

func quantities(m map[string]string, at path.Path, diags *diag.Diagnostics) corev1.ResourceList {
	if len(m) == 0 {
		return nil
	}
	out := corev1.ResourceList{}
	for k, v := range m {
		q, err := resource.ParseQuantity(v)
		if err != nil {
			diags.AddAttributeError(at.AtMapKey(k), "Invalid quantity", fmt.Sprintf("%q is not a Kubernetes quantity (e.g. 500m, 2, 1Gi): %v", v, err))
			continue
		}
		out[corev1.ResourceName(k)] = q
	}
	return out
}

func fill(m *model, sim *simmodel.Simulation) {
	m.Method = types.StringValue(sim.Method)
	m.NodeCount = types.Int64Value(int64(len(sim.Nodes)))
	m.HourlyCost = types.Float64Value(sim.HourlyCost)
	m.Currency = types.StringValue(money.Code(sim.Currency))
	m.MonthlyCost = types.Float64Value(money.Round(sim.Currency, sim.HourlyCost*analysis.HoursPerMonth))
	m.CPUUtilisation = types.Float64Value(sim.Utilisation.CPU)
	m.MemoryUtilisation = types.Float64Value(sim.Utilisation.Memory)
	m.ScheduledPods = types.Int64Value(int64(sim.ScheduledPods))
	m.PriceEstimated = types.BoolValue(sim.PriceEstimated)
	m.Nodes = nodes(sim)
	m.Unschedulable = make([]unschedulableItem, 0, len(sim.Unschedulable))
	for _, u := range sim.Unschedulable {
		m.Unschedulable = append(m.Unschedulable, unschedulableItem{Workload: u.Workload, Count: int64(u.Count), Reason: u.Reason})
	}
	sort.SliceStable(m.Unschedulable, func(i, j int) bool { return m.Unschedulable[i].Workload < m.Unschedulable[j].Workload })
	m.TieBreaks, m.HourlyCostRange = types.Int64Null(), nil
	if sim.Method == simmodel.MethodKarpenter {
		m.TieBreaks = types.Int64Value(int64(sim.TieBreaks))
	}
	if r := sim.CostRange; r != nil {
		m.HourlyCostRange = &costRangeModel{Min: types.Float64Value(r.Min), Max: types.Float64Value(r.Max),
			MinNodes: types.Int64Value(int64(r.MinNodes)), MaxNodes: types.Int64Value(int64(r.MaxNodes)),
			MinPending: types.Int64Value(int64(r.MinPending)), MaxPending: types.Int64Value(int64(r.MaxPending)),
			Outcomes: types.Int64Value(int64(r.Outcomes)), Runs: types.Int64Value(int64(r.Runs)), Exhaustive: types.BoolValue(r.Exhaustive),
			Expected: types.Float64Value(r.Expected), Samples: types.Int64Value(int64(r.Samples))}
	}
}

func nodes(sim *simmodel.Simulation) []nodeModel {
	out := make([]nodeModel, 0, len(sim.Nodes))
	for _, n := range sim.Nodes {
		pods := map[string]int64{}
		for _, p := range n.Pods {
			pods[p.Workload] += int64(p.Count)
		}
		out = append(out, nodeModel{Pool: n.Pool, SKU: n.SKU, Zone: n.Zone, ZoneAssumed: n.ZoneAssumed, CapacityType: n.CapacityType, HourlyPrice: n.HourlyPrice, PriceSource: n.PriceSource, Pods: pods})
	}
	return out
}
