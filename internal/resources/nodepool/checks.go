package nodepool

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/planstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

var findingType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"code": types.StringType, "severity": types.StringType, "path": types.StringType, "message": types.StringType,
}}

var capacityChoiceType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"sku": types.StringType, "hourly_price": types.Float64Type, "currency": types.StringType, "price_source": types.StringType,
	"price_estimated": types.BoolType, "monthly_cost_at_limits": types.Float64Type,
}}

var analysisAttrTypes = map[string]attr.Type{
	"scope":                  types.StringType,
	"node_class":             types.StringType,
	"admissible_skus":        types.Int64Type,
	"cheapest_sku":           types.StringType,
	"cheapest_capacity_type": types.StringType,
	"cheapest_hourly_price":  types.Float64Type,
	"currency":               types.StringType,
	"price_estimated":        types.BoolType,
	"price_source":           types.StringType,
	"capacity_types":         types.MapType{ElemType: capacityChoiceType},
	"largest_sku":            types.StringType,
	"largest_vcpu":           types.Int64Type,
	"largest_memory_gib":     types.Float64Type,
	"limits_allow_one_node":  types.BoolType,
	"monthly_cost_at_limits": types.Float64Type,
	"findings":               types.ListType{ElemType: findingType},
}

func checksAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"checks": schema.SingleNestedAttribute{
			Optional:            true,
			MarkdownDescription: "Settings of this pool's plan-time provisioning checks. Not part of the Kubernetes object.",
			Attributes: map[string]schema.Attribute{
				"suppress": schema.SetAttribute{
					Optional: true, ElementType: types.StringType, Validators: []validator.Set{crdresource.KnownCodes{}},
					MarkdownDescription: "Finding codes (e.g. `KRP104`) not to report for this pool.",
				},
				"largest_pod": schema.MapAttribute{
					Optional: true, ElementType: types.StringType, Validators: []validator.Map{quantities{}},
					MarkdownDescription: "Requests of the largest pod this pool must be able to run, e.g. `{ cpu = \"14\", memory = \"60Gi\" }`: the plan fails (KRP112) when it fits on no admissible node.",
				},
			},
		},
		"analysis": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "What Karpenter could launch for this pool, worked out offline from the embedded catalog of the cloud its `node_class_ref` " +
				"names (Azure VM sizes for an AKSNodeClass, EC2 instance types for an EC2NodeClass) in the provider's `region` (or the `cluster`'s): admissible sizes, the cheapest and largest, whether the limits allow one node, and every finding. " +
				"Shown in `terraform plan` and in `terraform show -json` for policy tools. Terraform plans a second time during apply and both " +
				"plans must agree, so it uses a node class both see alike: for a pool in the state, the class as the pool's last refresh or write " +
				"saw it. For a new pool, or one whose `node_class_ref` changes, it is the class the run creates or changes, which Terraform plans " +
				"before the pool in both plans when the pool references it through an attribute (`name = karpenter_aksnodeclass.x.name`); " +
				"otherwise the class read from the cluster (NAP's `default`, a class outside the configuration, an unchanged class), the plan " +
				"connecting for it. It is known after apply only where the two plans can see the class differently: settings known only after " +
				"apply, a class planned for deletion, a class that does not exist yet (AKS or another resource of the run may create it), or a " +
				"cluster the plan cannot reach. A literal `name` of a class that the same run creates or changes is the one case the provider " +
				"cannot tell apart: Terraform then plans the two in any order in each plan, and may stop the apply with \"Provider produced " +
				"inconsistent final plan\" on `analysis` (a second apply completes); reference the class instead. The plan's diagnostics " +
				"always use the node class planned in the same run.",
			Attributes: map[string]schema.Attribute{
				"scope":           schema.StringAttribute{Computed: true, MarkdownDescription: "The region checked, or that no region was set."},
				"node_class":      schema.StringAttribute{Computed: true, MarkdownDescription: "Which node class settings were used (e.g. `AKSNodeClass <name>`), or that its defaults were assumed and why (not an AKSNodeClass, does not exist)."},
				"admissible_skus": schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of instance types (VM sizes on AKS) the pool can launch."},
				"cheapest_sku":    schema.StringAttribute{Computed: true, MarkdownDescription: "The VM size Karpenter would launch first: the cheapest admissible offering, ranked as the Azure provider's allocation strategy ranks them (lowest price, then spot before on-demand, then zonal before regional)."},
				"cheapest_capacity_type": schema.StringAttribute{Computed: true, MarkdownDescription: "The capacity type Karpenter would launch, `spot` or `on-demand`. A pool that allows both (or has no " +
					"`karpenter.sh/capacity-type` requirement) launches spot whenever spot is cheaper, which it nearly always is."},
				"cheapest_hourly_price": schema.Float64Attribute{Computed: true, MarkdownDescription: "Its hourly price, in `currency`."},
				"currency": schema.StringAttribute{Computed: true, MarkdownDescription: "ISO 4217 code of every price and cost of the analysis: its price table's, never converted " +
					"(`USD`; `CNY` in AWS's China regions; a replace-mode `checks.catalog_path` file may name another). Null when no size is admissible."},
				"price_estimated": schema.BoolAttribute{Computed: true, MarkdownDescription: "True when that price is not a list (or override) price of the region: see `price_source`."},
				"price_source": schema.StringAttribute{Computed: true, MarkdownDescription: "Where that price comes from: `list YYYY-MM-DD` (a list price of the embedded snapshot of that day), " +
					"`override…` (from `checks.catalog_path`), or `estimated: …` saying how it was estimated (e.g. a spot price from the on-demand price and the spot/on-demand ratio of the same size in regions with spot list prices)."},
				"capacity_types": schema.MapNestedAttribute{
					Computed: true, MarkdownDescription: "Per capacity type the pool allows (`spot`, `on-demand`): its cheapest offering and cost at the limits, so that both sides of a spot pool with on-demand fallback are visible.",
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"sku":                    schema.StringAttribute{Computed: true, MarkdownDescription: "Cheapest admissible VM size of this capacity type."},
						"hourly_price":           schema.Float64Attribute{Computed: true, MarkdownDescription: "Its hourly price, in `currency`."},
						"currency":               schema.StringAttribute{Computed: true, MarkdownDescription: "ISO 4217 code of the price, as `currency`."},
						"price_source":           schema.StringAttribute{Computed: true, MarkdownDescription: "Provenance of the price, as `price_source`."},
						"price_estimated":        schema.BoolAttribute{Computed: true, MarkdownDescription: "True when the price is an estimate."},
						"monthly_cost_at_limits": schema.Float64Attribute{Computed: true, MarkdownDescription: "As `monthly_cost_at_limits`, at this capacity type's prices; null when no limit binds."},
					}},
				},
				"largest_sku":           schema.StringAttribute{Computed: true, MarkdownDescription: "Largest admissible VM size (by vCPU, then memory)."},
				"largest_vcpu":          schema.Int64Attribute{Computed: true, MarkdownDescription: "Its vCPUs."},
				"largest_memory_gib":    schema.Float64Attribute{Computed: true, MarkdownDescription: "Its memory in GiB."},
				"limits_allow_one_node": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the limits leave room for at least one admissible node."},
				"monthly_cost_at_limits": schema.Float64Attribute{Computed: true, MarkdownDescription: "Cheapest monthly cost (730 h) of the pool filled to its limits: per admissible size, its cheapest price times the nodes " +
					"the binding limit (`cpu`, `memory`, `nvidia.com/gpu`, `nodes`, ...) admits, the least over the sizes. Null when no limit binds a size that fits one node (no limits, or limits on resources the sizes lack): the cost is then unbounded, not zero."},
				"findings": schema.ListNestedAttribute{
					Computed: true, MarkdownDescription: "Every finding, including suppressed ones and notes.",
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"code":     schema.StringAttribute{Computed: true, MarkdownDescription: "Stable finding code."},
						"severity": schema.StringAttribute{Computed: true, MarkdownDescription: "`error`, `warning` or `note` (before strict mode and suppression)."},
						"path":     schema.StringAttribute{Computed: true, MarkdownDescription: "Kubernetes field path concerned."},
						"message":  schema.StringAttribute{Computed: true, MarkdownDescription: "What was found and what to change."},
					}},
				},
			},
		},
	}
}

// planChecks runs the solver on the planned NodePool and reports its findings.
//
// Terraform plans twice: in the plan walk every resource, in the apply walk again only those
// that change, each after what it references, otherwise in any order. The analysis attribute
// must come out the same both times, so it is computed from what both walks see alike: the
// pool, the provider's settings and the node class snapshot its last refresh or write kept in
// private state (observe). A create has no snapshot in the apply walk: its node class is the
// one the walk plans to change, else the cluster's (planstate.ForNewReference). Diagnostics
// need no such consistency and use the node class planned before the pool in this walk when
// there is one.
func planChecks(ctx context.Context, pc *crdresource.PlanContext) {
	unknownAnalysis := tftypes.NewValue(pc.Types["analysis"], tftypes.UnknownValue)
	settings := readChecks(ctx, pc.Values["checks"], pc.Diags)
	checkNodeClassRef(ctx, pc, settings.suppress)
	if pc.Data == nil || (pc.Data.Checks.Disabled && len(pc.Data.Checks.Unknown) == 0) {
		pc.Values["analysis"] = tftypes.NewValue(pc.Types["analysis"], nil)
		return
	}
	known, unknown := crdtree.StripUnknown(pc.Object)
	if len(unknown) > 0 || len(pc.Data.Checks.Unknown) > 0 || settings.unknown {
		// Part of the pool, the region or checks settings, or the pool's largest_pod are known
		// only after apply; checking with the rest could mislead, and the apply walk would
		// compute another analysis.
		pc.Values["analysis"] = unknownAnalysis
		return
	}
	s, err := pc.Data.Analyzer()
	if err != nil {
		pc.Diags.AddAttributeError(rootPath("checks"), "Cannot load the SKU catalog", err.Error())
		return
	}
	pool, err := analysis.PoolFromObject(known)
	if err != nil {
		// The same in both walks: nothing to analyse.
		pc.Values["analysis"] = tftypes.NewValue(pc.Types["analysis"], nil)
		return
	}
	opts := analysis.Options{Region: pc.Data.Region, LargestPod: settings.largestPod, Target: pc.Data.Checks.Target}

	// The analysis may use only what both of Terraform's walks see alike (planstate.ForAnalysis
	// takes no board); the diagnostics prefer the node class planned before the pool.
	ref := nodeClassRef(s.Clouds(), pool)
	forAnalysis := planstate.ForAnalysis(ref, pc.Remembered, pc.Creating)
	if forAnalysis.State == planstate.ViewUnknown {
		// A create, or a pool that now references another node class (see ForNewReference).
		forAnalysis = pc.Data.Plan.NodePools().ForNewReference(ref, func() (planstate.NodeClassSettings, bool, error) {
			return planTimeNodeClass(ctx, pc, nodeClassGroup(pool), ref)
		})
	}
	var a *analysis.Analysis
	if forAnalysis.State != planstate.ViewUnknown {
		opts.NodeClass, opts.NodeClassAssumed = forAnalysis.Settings, forAnalysis.Assumed
		a = s.Analyze(pool, opts)
		pc.Values["analysis"] = analysisValue(ctx, a, forAnalysis.Label)
	} else {
		// Both walks may see the node class differently: crdresource fills it in after the write.
		pc.Values["analysis"] = unknownAnalysis
	}

	source := pc.Data.Plan.NodePools().ForDiagnostics(ref, forAnalysis)
	if a == nil || source.Settings != opts.NodeClass || source.Assumed != opts.NodeClassAssumed {
		opts.NodeClass, opts.NodeClassAssumed = source.Settings, source.Assumed
		a = s.Analyze(pool, opts)
	}
	report(pc, a, settings.suppress, source.Label)
	clusterImpact(ctx, pc, s, known, settings.suppress)
}

// nodeClassRef is the pool's node_class_ref, as the plan-time state names it, with the cloud
// that owns its group and kind.
func nodeClassRef(clouds *cloud.Registry, pool *analysis.Pool) planstate.Ref {
	var kind string
	if ref := pool.Spec.Template.Spec.NodeClassRef; ref != nil {
		kind = ref.Kind
	}
	return refOf(clouds, nodeClassGroup(pool), kind, pool.NodeClassName())
}

// nodeClassGroup is the API group of the pool's node_class_ref, "" without one.
func nodeClassGroup(pool *analysis.Pool) string {
	if ref := pool.Spec.Template.Spec.NodeClassRef; ref != nil {
		return ref.Group
	}
	return ""
}

func refOf(clouds *cloud.Registry, group, kind, name string) planstate.Ref {
	r := planstate.Ref{Kind: kind, Name: name}
	if c, ok := clouds.ForGroup(group); ok && clouds.Owns(group, kind) {
		r.Cloud = c
	}
	return r
}

// observe snapshots the pool's node class after each refresh and write, for planChecks (see
// planstate.Observe). The live class is read through kube.Client.GetShared: 250 pools on
// one class make one GET per refresh, not 250.
func observe(ctx context.Context, oc *crdresource.ObserveContext) []byte {
	ref, _, _ := unstructured.NestedStringMap(oc.Object, "spec", "template", "spec", "nodeClassRef")
	board, clouds := planstate.New(), builtinClouds() // without provider data, nothing was planned
	if oc.Data != nil {
		board = oc.Data.Plan
		if s, err := oc.Data.Analyzer(); err == nil {
			clouds = s.Clouds()
		}
	}
	r := refOf(clouds, ref["group"], ref["kind"], ref["name"])
	live := func() (planstate.NodeClassSettings, bool, error) {
		return liveNodeClass(ctx, oc.Client, ref["group"], r)
	}
	return board.NodePools().Observe(r, live).Encode()
}

// liveNodeClass reads the node class r names (of API group group) from the cluster: its
// settings, and whether it exists.
func liveNodeClass(ctx context.Context, client *kube.Client, group string, r planstate.Ref) (planstate.NodeClassSettings, bool, error) {
	k := kinds.ForGroupKind(k8sschema.GroupKind{Group: group, Kind: r.Kind})
	if k == nil {
		return nil, false, fmt.Errorf("this build has no CRD of %s.%s", r.Kind, group)
	}
	// Every pool on the class reads it: one GET per class and walk serves them all (the
	// client lives for one walk; its writes drop the entry).
	obj, err := client.GetShared(ctx, k.GVR(), r.Name)
	if err != nil || obj == nil {
		return nil, false, err
	}
	nc, err := r.Cloud.DecodeNodeClass(obj.UnstructuredContent())
	return nc, err == nil, err
}

// planTimeReadTimeout bounds the plan-time read of a new pool's node class: an unreachable
// cluster leaves the analysis known after apply instead of holding up the plan.
const planTimeReadTimeout = 10 * time.Second

// planTimeNodeClass reads the node class of a new pool from the cluster, connecting if no
// refresh has yet. Terraform's apply walk plans the pool again and reads the same object.
func planTimeNodeClass(ctx context.Context, pc *crdresource.PlanContext, group string, r planstate.Ref) (planstate.NodeClassSettings, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, planTimeReadTimeout)
	defer cancel()
	var settings planstate.NodeClassSettings
	var found bool
	err := pc.Data.Clients.PlanTimeRead(ctx, func(ctx context.Context, client *kube.Client) error {
		var err error
		settings, found, err = liveNodeClass(ctx, client, group, r)
		return err
	})
	return settings, found, err
}

// builtinClouds are the clouds a solver over the embedded catalogs serves, for an observation
// made without provider data (the registry decodes no catalog).
var builtinClouds = sync.OnceValue(func() *cloud.Registry { return analysis.New(nil).Clouds() })

// report shows the findings as diagnostics on the attributes they concern, through the
// provider's checks (crdresource.ReportFinding): notes and suppressed codes are only recorded in
// the analysis attribute, and strict mode makes warnings errors.
func report(pc *crdresource.PlanContext, a *analysis.Analysis, suppress []findings.Code, nodeClass string) {
	for _, f := range a.Findings {
		pc.ReportFinding(f, crdresource.FindingDetail{
			Context:  fmt.Sprintf("Checked offline against %s with %s.", a.Summary.Scope, nodeClass),
			Suppress: suppress,
			Silence:  poolSilence,
		})
	}
}

// poolSilence says how a pool silences a code.
const poolSilence = "Silence this for the pool with checks = { suppress = [%q] }."

func analysisValue(ctx context.Context, a *analysis.Analysis, nodeClass string) tftypes.Value {
	list := make([]attr.Value, 0, len(a.Findings))
	for _, f := range a.Findings {
		list = append(list, types.ObjectValueMust(findingType.AttrTypes, map[string]attr.Value{
			"code": types.StringValue(string(f.Code)), "severity": types.StringValue(f.Severity().String()),
			"path": types.StringValue(f.Path), "message": types.StringValue(f.Message),
		}))
	}
	str := func(s string) attr.Value {
		if s == "" {
			return types.StringNull()
		}
		return types.StringValue(s)
	}
	s := a.Summary
	hasNode := s.AdmissibleSKUs > 0
	num := func(f float64) attr.Value {
		if !hasNode {
			return types.Float64Null()
		}
		return types.Float64Value(f)
	}
	obj := types.ObjectValueMust(analysisAttrTypes, map[string]attr.Value{
		"scope":                  types.StringValue(s.Scope),
		"node_class":             types.StringValue(nodeClass),
		"admissible_skus":        types.Int64Value(int64(s.AdmissibleSKUs)),
		"cheapest_sku":           str(s.CheapestSKU),
		"cheapest_capacity_type": str(s.CheapestCapacity),
		"cheapest_hourly_price":  num(s.CheapestHourlyPrice),
		"currency":               str(s.Currency),
		"price_estimated":        types.BoolValue(s.PriceEstimated),
		"price_source":           str(s.PriceSource),
		"capacity_types":         capacityChoices(s.CapacityTypes),
		"largest_sku":            str(s.LargestSKU),
		"largest_vcpu":           types.Int64Value(s.LargestVCPU),
		"largest_memory_gib":     num(s.LargestMemoryGiB),
		"limits_allow_one_node":  types.BoolValue(s.LimitsAllowOneNode),
		"monthly_cost_at_limits": optNum(s.MonthlyCostAtLimits),
		"findings":               types.ListValueMust(findingType, list),
	})
	v, _ := obj.ToTerraformValue(ctx)
	return v
}

func rootPath(name string) path.Path { return path.Root(name) }

func optNum(f *float64) attr.Value {
	if f == nil {
		return types.Float64Null()
	}
	return types.Float64Value(*f)
}

func capacityChoices(m map[string]analysis.CapacityChoice) attr.Value {
	elems := make(map[string]attr.Value, len(m))
	for ct, c := range m {
		elems[ct] = types.ObjectValueMust(capacityChoiceType.AttrTypes, map[string]attr.Value{
			"sku": types.StringValue(c.SKU), "hourly_price": types.Float64Value(c.HourlyPrice), "currency": types.StringValue(c.Currency),
			"price_source": types.StringValue(c.PriceSource), "price_estimated": types.BoolValue(c.PriceEstimated),
			"monthly_cost_at_limits": optNum(c.MonthlyCostAtLimits),
		})
	}
	return types.MapValueMust(capacityChoiceType, elems)
}
