package nodepool

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/solver"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/tfcrd"
)

var findingType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"code": types.StringType, "severity": types.StringType, "path": types.StringType, "message": types.StringType,
}}

var capacityChoiceType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"sku": types.StringType, "hourly_price": types.Float64Type, "price_source": types.StringType,
	"price_estimated": types.BoolType, "monthly_cost_at_limits": types.Float64Type,
}}

var analysisAttrTypes = map[string]attr.Type{
	"scope":                  types.StringType,
	"node_class":             types.StringType,
	"admissible_skus":        types.Int64Type,
	"cheapest_sku":           types.StringType,
	"cheapest_capacity_type": types.StringType,
	"cheapest_hourly_price":  types.Float64Type,
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
					Optional: true, ElementType: types.StringType, Validators: []validator.Set{knownCodes{}},
					MarkdownDescription: "Finding codes (e.g. `KRP104`) not to report for this pool.",
				},
				"largest_pod": schema.MapAttribute{
					Optional: true, ElementType: types.StringType,
					MarkdownDescription: "Requests of the largest pod this pool must be able to run, e.g. `{ cpu = \"14\", memory = \"60Gi\" }`: the plan fails (KRP112) when it fits on no admissible node.",
				},
			},
		},
		"analysis": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "What Karpenter on AKS could launch for this pool, worked out offline from the embedded SKU catalog " +
				"in the provider's `region`: admissible sizes, the cheapest and largest, whether the limits allow one node, and every finding. " +
				"Shown in `terraform plan` and in `terraform show -json` for policy tools. It uses the AKSNodeClass as the pool's last refresh " +
				"or write saw it (planned before the pool in the same run, or else read from the cluster), because Terraform plans a second " +
				"time during apply and both plans must agree; so a new pool's analysis, and one whose `node_class_ref` changes, is known after " +
				"apply, computed then from the node class as applied. The plan's diagnostics always use the node class planned in the same run.",
			Attributes: map[string]schema.Attribute{
				"scope":           schema.StringAttribute{Computed: true, MarkdownDescription: "The region checked, or that no region was set."},
				"node_class":      schema.StringAttribute{Computed: true, MarkdownDescription: "Which AKSNodeClass settings were used (`AKSNodeClass <name>`), or that its defaults were assumed and why (not an AKSNodeClass, does not exist)."},
				"admissible_skus": schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of VM sizes the pool can launch."},
				"cheapest_sku":    schema.StringAttribute{Computed: true, MarkdownDescription: "The VM size Karpenter would launch first: the cheapest admissible offering, ranked as the Azure provider's allocation strategy ranks them (lowest price, then spot before on-demand, then zonal before regional)."},
				"cheapest_capacity_type": schema.StringAttribute{Computed: true, MarkdownDescription: "The capacity type Karpenter would launch, `spot` or `on-demand`. A pool that allows both (or has no " +
					"`karpenter.sh/capacity-type` requirement) launches spot whenever spot is cheaper, which it nearly always is."},
				"cheapest_hourly_price": schema.Float64Attribute{Computed: true, MarkdownDescription: "Its hourly price in USD."},
				"price_estimated":       schema.BoolAttribute{Computed: true, MarkdownDescription: "True when that price is not a list (or override) price of the region: see `price_source`."},
				"price_source": schema.StringAttribute{Computed: true, MarkdownDescription: "Where that price comes from: `list YYYY-MM-DD` (a list price of the embedded snapshot of that day), " +
					"`override…` (from `checks.catalog_path`), or `estimated: …` saying how it was estimated (e.g. a spot price from the on-demand price and the spot/on-demand ratio of the same size in regions with spot list prices)."},
				"capacity_types": schema.MapNestedAttribute{
					Computed: true, MarkdownDescription: "Per capacity type the pool allows (`spot`, `on-demand`): its cheapest offering and cost at the limits, so that both sides of a spot pool with on-demand fallback are visible.",
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"sku":                    schema.StringAttribute{Computed: true, MarkdownDescription: "Cheapest admissible VM size of this capacity type."},
						"hourly_price":           schema.Float64Attribute{Computed: true, MarkdownDescription: "Its hourly price in USD."},
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
// private state (observe). A create has no snapshot, so its analysis is known after apply,
// computed then from the node class as applied. Diagnostics need no such consistency and use
// the node class planned before the pool in this walk when there is one.
func planChecks(ctx context.Context, pc *crdresource.PlanContext) {
	unknownAnalysis := tftypes.NewValue(pc.Types["analysis"], tftypes.UnknownValue)
	checkNodeClassRef(pc, readChecks(pc.Values["checks"]).suppress)
	if pc.Data == nil || (pc.Data.Checks.Disabled && len(pc.Data.Checks.Unknown) == 0) {
		pc.Values["analysis"] = tftypes.NewValue(pc.Types["analysis"], nil)
		return
	}
	known, unknown := tfcrd.StripUnknown(pc.Object)
	if len(unknown) > 0 || len(pc.Data.Checks.Unknown) > 0 {
		// Part of the pool, or the region or checks settings, are known only after apply;
		// checking with the rest could mislead.
		pc.Values["analysis"] = unknownAnalysis
		return
	}
	s, err := pc.Data.Solver()
	if err != nil {
		pc.Diags.AddAttributeError(rootPath("checks"), "Cannot load the SKU catalog", err.Error())
		return
	}
	pool, err := solver.PoolFromObject(known)
	if err != nil {
		// The same in both walks: nothing to analyse.
		pc.Values["analysis"] = tftypes.NewValue(pc.Types["analysis"], nil)
		return
	}
	settings := readChecks(pc.Values["checks"])
	opts := solver.Options{Region: pc.Data.Region, LargestPod: settings.largestPod, Target: pc.Data.Checks.Target}

	snap, usable := snapshotFor(pc.Remembered, pool)
	usable = usable && !pc.Creating
	var a *solver.Analysis
	if usable {
		opts.NodeClass, opts.NodeClassAssumed = snap.Settings, !snap.Found
		a = s.Analyze(pool, opts)
		pc.Values["analysis"] = analysisValue(ctx, a, snap.label())
	} else {
		// A create, a pool that now references another node class, or a node class with
		// settings known only after apply: crdresource fills it in after the write.
		pc.Values["analysis"] = unknownAnalysis
	}

	source := diagnosticClass(pc, pool, snap, usable)
	if a == nil || source.settings != opts.NodeClass || source.assumed != opts.NodeClassAssumed {
		opts.NodeClass, opts.NodeClassAssumed = source.settings, source.assumed
		a = s.Analyze(pool, opts)
	}
	report(pc, a, settings.suppress, source.label)
}

// classSource is the node class the diagnostics are checked with, and how to name it.
type classSource struct {
	settings aks.NodeClass
	assumed  bool
	label    string
}

// diagnosticClass prefers the node class planned before the pool in this walk (the newest
// settings), then the pool's snapshot, then the CRD defaults.
func diagnosticClass(pc *crdresource.PlanContext, pool *solver.Pool, snap nodeClassSnapshot, usable bool) classSource {
	name := pool.NodeClassName()
	if isAKSRef(pool) {
		if planned, _, _, ok := pc.Data.NodeClass(name); ok {
			return classSource{settings: planned, label: "AKSNodeClass " + name + " as planned"}
		}
	}
	if usable {
		return classSource{settings: snap.Settings, assumed: !snap.Found, label: snap.label()}
	}
	return classSource{assumed: true, label: assumedLabel(pool, "is not planned with this pool")}
}

// isAKSRef says whether the pool references Azure's node-class kind, the one whose planned
// settings this provider records (cloud/aks.NodeClassKind).
func isAKSRef(pool *solver.Pool) bool {
	ref := pool.Spec.Template.Spec.NodeClassRef
	return ref != nil && ref.Kind == aks.NodeClassKind.Kind
}

func assumedLabel(pool *solver.Pool, why string) string {
	if !isAKSRef(pool) {
		return "defaults assumed (" + pool.NodeClassName() + " is not an AKSNodeClass)"
	}
	return "defaults assumed (AKSNodeClass " + pool.NodeClassName() + " " + why + ")"
}

// nodeClassSnapshot is what a pool keeps in private state of the node class it references, as
// its last refresh or write saw it: the settings planned before it in that walk, or else the
// live object.
type nodeClassSnapshot struct {
	// Name and Kind of the reference the snapshot was taken for.
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
	// Found is false when no such AKSNodeClass was planned or exists (or the kind is another).
	Found    bool          `json:"found"`
	Settings aks.NodeClass `json:"settings"`
	// Pending is set when the node class planned in that walk had settings known only after apply.
	Pending bool `json:"pending,omitempty"`
	// Why says why no settings were found.
	Why string `json:"why,omitempty"`
}

func (s nodeClassSnapshot) label() string {
	if s.Found {
		return "AKSNodeClass " + s.Name
	}
	if s.Kind != "AKSNodeClass" {
		return "defaults assumed (" + s.Name + " is not an AKSNodeClass)"
	}
	return "defaults assumed (AKSNodeClass " + s.Name + " " + s.Why + ")"
}

// snapshotFor reads the snapshot in b; usable says it describes the node class the pool
// references now and has all its settings.
func snapshotFor(b []byte, pool *solver.Pool) (nodeClassSnapshot, bool) {
	var s nodeClassSnapshot
	if len(b) == 0 || json.Unmarshal(b, &s) != nil {
		return nodeClassSnapshot{}, false
	}
	ref := pool.Spec.Template.Spec.NodeClassRef
	kind := ""
	if ref != nil {
		kind = ref.Kind
	}
	return s, s.Name == pool.NodeClassName() && s.Kind == kind && !s.Pending
}

// observe snapshots the pool's node class after each refresh and write, for planChecks: the
// settings of the node class planned before the pool in this walk (the newest; during a
// refresh that is Terraform's plan walk), or else the live object.
func observe(ctx context.Context, oc *crdresource.ObserveContext) []byte {
	name, _, _ := unstructured.NestedString(oc.Object, "spec", "template", "spec", "nodeClassRef", "name")
	kind, _, _ := unstructured.NestedString(oc.Object, "spec", "template", "spec", "nodeClassRef", "kind")
	snap := nodeClassSnapshot{Name: name, Kind: kind}
	switch {
	case kind != "AKSNodeClass":
	case oc.Data != nil && oc.Data.NodeClassDeleted(name):
		// Destroyed by this run: as the refresh after it will find it.
		snap.Why = "does not exist"
	case oc.Data != nil && recorded(oc.Data, name, &snap):
	default:
		live, err := oc.Client.Get(ctx, aksNodeClasses, name)
		switch {
		case err != nil:
			snap.Why = "could not be read"
		case live == nil:
			snap.Why = "does not exist"
		default:
			nc, err := solver.NodeClassFromObject(live.UnstructuredContent())
			if err != nil {
				snap.Why = "could not be read"
				break
			}
			snap.Found, snap.Settings = true, nc
		}
	}
	b, _ := json.Marshal(snap)
	return b
}

func recorded(data *providerdata.Data, name string, snap *nodeClassSnapshot) bool {
	nc, _, complete, ok := data.NodeClass(name)
	if !ok {
		return false
	}
	snap.Found, snap.Settings, snap.Pending = true, nc, !complete
	return true
}

type checkSettings struct {
	suppress   map[string]bool
	largestPod corev1.ResourceList
}

func readChecks(v tftypes.Value) checkSettings {
	out := checkSettings{suppress: map[string]bool{}}
	if v.IsNull() || !v.IsKnown() {
		return out
	}
	attrs := map[string]tftypes.Value{}
	_ = v.As(&attrs)
	var codes []tftypes.Value
	if s := attrs["suppress"]; !s.IsNull() && s.IsKnown() {
		_ = s.As(&codes)
	}
	for _, c := range codes {
		var code string
		if c.IsKnown() && c.As(&code) == nil {
			out.suppress[strings.ToUpper(code)] = true
		}
	}
	pod := map[string]tftypes.Value{}
	if p := attrs["largest_pod"]; !p.IsNull() && p.IsKnown() {
		_ = p.As(&pod)
	}
	for k, q := range pod {
		var s string
		if q.IsKnown() && q.As(&s) == nil {
			if qty, err := resource.ParseQuantity(s); err == nil {
				if out.largestPod == nil {
					out.largestPod = corev1.ResourceList{}
				}
				out.largestPod[corev1.ResourceName(k)] = qty
			}
		}
	}
	return out
}

// report turns findings into diagnostics on the attributes they concern. Warnings become errors
// in strict mode; suppressed codes and notes are only recorded in the analysis attribute.
func report(pc *crdresource.PlanContext, a *solver.Analysis, suppress map[string]bool, nodeClass string) {
	for _, f := range a.Findings {
		if suppress[string(f.Code)] || f.Severity == findings.Note {
			continue
		}
		summary := fmt.Sprintf("%s: %s", f.Code, title(f))
		detail := fmt.Sprintf("%s\n\nFix: %s.\n\nChecked offline against %s with %s. Silence this for the pool with checks = { suppress = [%q] }.",
			f.Message, f.Fix, a.Summary.Scope, nodeClass, f.Code)
		pc.Report(f.Path, f.Severity == findings.Error || pc.Data.Checks.Strict, summary, detail)
	}
}

// title is the registry's one-line name of the finding's code.
func title(f solver.Finding) string {
	if r, ok := findings.Lookup(f.Code); ok {
		return strings.TrimSuffix(r.Title, ".")
	}
	return "provisioning check"
}

func analysisValue(ctx context.Context, a *solver.Analysis, nodeClass string) tftypes.Value {
	list := make([]attr.Value, 0, len(a.Findings))
	for _, f := range a.Findings {
		list = append(list, types.ObjectValueMust(findingType.AttrTypes, map[string]attr.Value{
			"code": types.StringValue(string(f.Code)), "severity": types.StringValue(f.Severity.String()),
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

func capacityChoices(m map[string]solver.CapacityChoice) attr.Value {
	elems := make(map[string]attr.Value, len(m))
	for ct, c := range m {
		elems[ct] = types.ObjectValueMust(capacityChoiceType.AttrTypes, map[string]attr.Value{
			"sku": types.StringValue(c.SKU), "hourly_price": types.Float64Value(c.HourlyPrice),
			"price_source": types.StringValue(c.PriceSource), "price_estimated": types.BoolValue(c.PriceEstimated),
			"monthly_cost_at_limits": optNum(c.MonthlyCostAtLimits),
		})
	}
	return types.MapValueMust(capacityChoiceType, elems)
}
