package provisioningsimulation

import (
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// steadyMethod labels every figure of karpenter_steady_state: Karpenter's, at its steady state,
// as the emulation computes it.
const steadyMethod = "Karpenter, steady state (emulated)"

// The ways a run to the steady state ends.
const (
	endedSteady   = "steady state"
	endedHorizon  = "horizon"
	endedBoundary = "iteration bound"
)

var steadyStateAttribute = schema.BoolAttribute{
	Optional: true,
	MarkdownDescription: "When true (with `mode` `karpenter` or `both`), Karpenter is also run on a simulated clock to its steady state: " +
		"provisioning rounds until nothing more can be placed, then Karpenter v1.14.1's disruption controller (emptiness, drift, " +
		"multi-node and single-node consolidation, with budgets, `consolidateAfter`, `expireAfter`, do-not-disrupt and the " +
		"PodDisruptionBudgets of `workloads_yaml`), until it proposes nothing more, at most 24 hours of simulated time. The outcome is " +
		"`karpenter_steady_state`, and `advice` then judges that state instead of the first round. Off by default: each consolidation " +
		"pass re-runs Karpenter's scheduler per candidate node, and `advice` runs every edit tried to its own steady state " +
		"(about 30 s of CPU for the guide's 1,000-pod wide pool in `mode = \"both\"`, against about 1 s without).",
}

func steadyRefAttributes(cstr func(string) schema.StringAttribute, cnum func(string) schema.Float64Attribute) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name":          cstr("The node's name in the emulation."),
		"pool":          cstr("NodePool that launched it."),
		"sku":           cstr("VM size (instance type)."),
		"capacity_type": cstr("`spot` or `on-demand`."),
		"zone":          cstr("Zone (`0`: regional placement, no zone)."),
		"hourly_price":  cnum("List price per hour of its offering, in `currency` (see `price_source`)."),
		"price_source":  cstr("Where the price comes from: `list YYYY-MM-DD` (the list price of that date), `override…` or `estimated: …`."),
	}
}

func steadyStateResultAttribute(cstr func(string) schema.StringAttribute, cnum func(string) schema.Float64Attribute) schema.SingleNestedAttribute {
	cint := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	ref := schema.NestedAttributeObject{Attributes: steadyRefAttributes(cstr, cnum)}
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "With `steady_state = true`: Karpenter's steady state from an empty cluster (or from `cluster_state_yaml`), " +
			"as `simulate` prints it under `steadyState`. Every figure is \"" + steadyMethod + "\" (`method`): Karpenter v1.14.1's " +
			"provisioning and disruption emulated on a simulated clock, not observed; `assumptions` say what is taken as given. " +
			"Prices are list prices (`prices` gives their dates). Null without `steady_state`, in `mode = \"optimal\"`, and above " +
			"5,000 pods (a warning says so).",
		Attributes: map[string]schema.Attribute{
			"method":                  cstr("`" + steadyMethod + "`: what every figure here is."),
			"label":                   cstr("The state in words, with how long the simulated clock ran, or which bound ended the run first."),
			"ended":                   cstr("How the run ended: `steady state` (the controller proposes nothing and no pod that can be placed is pending), `horizon` (24 hours of simulated time passed first) or `iteration bound` (the bound on steps, a guard against loops)."),
			"seconds_to_steady_state": cnum("Simulated seconds from the start to the last change."),
			"node_count":              cint("Nodes at the end."),
			"hourly_cost":             cnum("The nodes' list prices summed, per hour, in `currency`, rounded to the currency's precision."),
			"monthly_cost":            cnum("`hourly_cost` × 730."),
			"currency":                cstr("ISO 4217 code of every price and cost here."),
			"prices":                  cstr("The prices' provenance over the nodes, e.g. `list 2026-06-18`: list prices of that date from the embedded catalog."),
			"pending":                 cint("Pods no node holds at the end."),
			"nodes": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "The nodes at the end.",
				NestedObject: schema.NestedAttributeObject{Attributes: nodeAttributes(cstr, cnum)},
			},
			"disruptions": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "The disruptions on the way, in order of time.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"seconds":      cnum("Simulated seconds from the start."),
					"reason":       cstr("`Empty`, `Drifted`, `Underutilized` or `Expired`."),
					"method":       cstr("The controller's method (`emptiness`, `drift`, `multi`, `single`), empty for an expiry."),
					"removed":      schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The nodes removed.", NestedObject: ref},
					"replacements": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The nodes launched in their place.", NestedObject: ref},
					"pods_evicted": cint("Pods evicted."),
					"estimated_saving": cnum("Karpenter's own estimate of the saving per hour, in `currency`, at list prices (the cheapest offering of " +
						"the replacement's first option); 0 for none."),
				}},
			},
			"totals": schema.MapAttribute{Computed: true, ElementType: types.Int64Type,
				MarkdownDescription: "Nodes removed per reason: `Empty`, `Drifted`, `Underutilized` and `Expired`, each present."},
			"pods_evicted": cint("Pods evicted over all disruptions."),
			"blocked": schema.ListNestedAttribute{
				Computed: true, MarkdownDescription: "Every node still drifted or underutilized at the end (its pods request under half its CPU and memory: a reporting threshold, not Karpenter's), with why it stays.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"node":    schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "The node.", Attributes: steadyRefAttributes(cstr, cnum)},
					"reason":  cstr("Why it stays: a PodDisruptionBudget, do-not-disrupt, a budget, no cheaper replacement, `consolidateAfter`, the policy."),
					"detail":  cstr("The controller's own words."),
					"drifted": schema.BoolAttribute{Computed: true, MarkdownDescription: "True for a drifted node."},
				}},
			},
			"assumptions": schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "What the run takes as given rather than emulates."},
		},
	}
}

type steadyModel struct {
	Method      types.String      `tfsdk:"method"`
	Label       types.String      `tfsdk:"label"`
	Ended       types.String      `tfsdk:"ended"`
	Seconds     types.Float64     `tfsdk:"seconds_to_steady_state"`
	NodeCount   types.Int64       `tfsdk:"node_count"`
	HourlyCost  types.Float64     `tfsdk:"hourly_cost"`
	MonthlyCost types.Float64     `tfsdk:"monthly_cost"`
	Currency    types.String      `tfsdk:"currency"`
	Prices      types.String      `tfsdk:"prices"`
	Pending     types.Int64       `tfsdk:"pending"`
	Nodes       []nodeModel       `tfsdk:"nodes"`
	Disruptions []disruptionModel `tfsdk:"disruptions"`
	Totals      map[string]int64  `tfsdk:"totals"`
	PodsEvicted types.Int64       `tfsdk:"pods_evicted"`
	Blocked     []blockedModel    `tfsdk:"blocked"`
	Assumptions []string          `tfsdk:"assumptions"`
}

type disruptionModel struct {
	Seconds      float64    `tfsdk:"seconds"`
	Reason       string     `tfsdk:"reason"`
	Method       string     `tfsdk:"method"`
	Removed      []refModel `tfsdk:"removed"`
	Replacements []refModel `tfsdk:"replacements"`
	PodsEvicted  int64      `tfsdk:"pods_evicted"`
	Saving       float64    `tfsdk:"estimated_saving"`
}

type refModel struct {
	Name         string  `tfsdk:"name"`
	Pool         string  `tfsdk:"pool"`
	SKU          string  `tfsdk:"sku"`
	CapacityType string  `tfsdk:"capacity_type"`
	Zone         string  `tfsdk:"zone"`
	HourlyPrice  float64 `tfsdk:"hourly_price"`
	PriceSource  string  `tfsdk:"price_source"`
}

type blockedModel struct {
	Node    refModel `tfsdk:"node"`
	Reason  string   `tfsdk:"reason"`
	Detail  string   `tfsdk:"detail"`
	Drifted bool     `tfsdk:"drifted"`
}

// steadyOf is the steady state for Terraform; nil for none.
func steadyOf(v *simulation.SteadyState) *steadyModel {
	if v == nil {
		return nil
	}
	cur := money.Code(v.Currency)
	out := &steadyModel{Method: types.StringValue(steadyMethod), Label: types.StringValue(simulation.SteadyLabel(v)), Ended: types.StringValue(ended(v)),
		Seconds: types.Float64Value(v.TimeToSteady.Seconds()), NodeCount: types.Int64Value(int64(len(v.Nodes))),
		HourlyCost: types.Float64Value(money.Round(cur, v.HourlyCost)), MonthlyCost: types.Float64Value(money.Round(cur, v.HourlyCost*analysis.HoursPerMonth)),
		Currency: types.StringValue(cur), Prices: types.StringValue(priceSources(v.Nodes)), Pending: types.Int64Value(int64(v.Pending)),
		Nodes: nodes(&simmodel.Simulation{Nodes: v.Nodes}), Disruptions: []disruptionModel{}, Totals: map[string]int64{},
		PodsEvicted: types.Int64Value(int64(v.PodsEvicted)), Blocked: []blockedModel{}, Assumptions: append([]string{}, v.Assumptions...)}
	for _, r := range []string{"Empty", "Drifted", "Underutilized", "Expired"} {
		out.Totals[r] = int64(v.Totals[r])
	}
	for _, d := range v.Disruptions {
		out.Disruptions = append(out.Disruptions, disruptionModel{Seconds: d.At.Seconds(), Reason: d.Reason, Method: d.Method, Removed: refs(cur, d.Removed),
			Replacements: refs(cur, d.Replacements), PodsEvicted: int64(d.PodsEvicted), Saving: money.Round(cur, d.Savings)})
	}
	for _, b := range v.Blocked {
		out.Blocked = append(out.Blocked, blockedModel{Node: ref(cur, b.Node), Reason: b.Reason, Detail: b.Detail, Drifted: b.Drifted})
	}
	return out
}

func ended(v *simulation.SteadyState) string {
	switch {
	case v.Steady:
		return endedSteady
	case v.HitBound:
		return endedBoundary
	}
	return endedHorizon
}

// priceSources are the distinct provenances of the nodes' prices, joined: "list 2026-06-18".
func priceSources(ns []simmodel.SimNode) string {
	seen := map[string]bool{}
	var out []string
	for _, n := range ns {
		if s := n.PriceSource; s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func refs(cur string, rs []simulation.NodeRef) []refModel {
	out := make([]refModel, 0, len(rs))
	for _, r := range rs {
		out = append(out, ref(cur, r))
	}
	return out
}

func ref(cur string, r simulation.NodeRef) refModel {
	return refModel{Name: r.Name, Pool: r.Pool, SKU: r.InstanceType, CapacityType: r.CapacityType, Zone: r.Zone,
		HourlyPrice: money.Round(cur, r.HourlyPrice), PriceSource: r.PriceSource}
}
