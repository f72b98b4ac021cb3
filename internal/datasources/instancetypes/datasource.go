package instancetypes

import (
	"context"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
)

// New is the data source constructor for the provider.
func New() datasource.DataSource { return &dataSource{} }

type dataSource struct{ data *providerdata.Data }

type model struct {
	Region types.String `tfsdk:"region"`
	// Requirements and NodeClass have the shape of the resources' attributes, derived from the
	// CRDs (crdschema.go); they are read through the same trees (input.go).
	Requirements  types.List      `tfsdk:"requirements"`
	NodeClass     types.Object    `tfsdk:"node_class"`
	SortBy        types.String    `tfsdk:"sort_by"`
	MaxResults    types.Int64     `tfsdk:"max_results"`
	Total         types.Int64     `tfsdk:"total"`
	InstanceTypes []instanceModel `tfsdk:"instance_types"`
}

type instanceModel struct {
	Name           types.String            `tfsdk:"name"`
	Family         types.String            `tfsdk:"family"`
	Architecture   types.String            `tfsdk:"architecture"`
	VCPU           types.Int64             `tfsdk:"vcpu"`
	MemoryGiB      types.Float64           `tfsdk:"memory_gib"`
	GPUCount       types.Int64             `tfsdk:"gpu_count"`
	GPUName        types.String            `tfsdk:"gpu_name"`
	Capacity       map[string]types.String `tfsdk:"capacity"`
	Allocatable    map[string]types.String `tfsdk:"allocatable"`
	CapacityTypes  []types.String          `tfsdk:"capacity_types"`
	Zones          []types.String          `tfsdk:"zones"`
	OnDemandPrice  types.Float64           `tfsdk:"on_demand_price"`
	SpotPrice      types.Float64           `tfsdk:"spot_price"`
	Currency       types.String            `tfsdk:"currency"`
	PriceEstimated types.Bool              `tfsdk:"price_estimated"`
	OnDemandSource types.String            `tfsdk:"on_demand_price_source"`
	SpotSource     types.String            `tfsdk:"spot_price_source"`
}

func (d *dataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_instance_types"
}

func (d *dataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data, ok := req.ProviderData.(*providerdata.Data); ok {
		d.data = data
	}
}

func (d *dataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "The VM sizes Karpenter on AKS could launch for a set of NodePool requirements and AKSNodeClass settings in a region, " +
			"derived offline from the embedded SKU catalog exactly as the Azure Karpenter provider builds its instance types: capacity, allocatable " +
			"(after kube-reserved and eviction thresholds) and hourly prices. No cluster and no Azure credentials are needed.",
		Attributes: map[string]schema.Attribute{
			"region":       schema.StringAttribute{Optional: true, MarkdownDescription: "Azure region; defaults to the provider's `region`. Without either, every size of the catalog is listed with Karpenter's fallback prices."},
			"requirements": requirementsAttribute(),
			"node_class":   nodeClassAttribute(),
			"sort_by": schema.StringAttribute{Optional: true, MarkdownDescription: "`price` (default: cheapest offering first), `name`, `vcpu` or `memory`.",
				Validators: []validator.String{stringvalidator.OneOf("price", "name", "vcpu", "memory")}},
			"max_results": schema.Int64Attribute{Optional: true, MarkdownDescription: "Return at most this many sizes.", Validators: []validator.Int64{int64validator.AtLeast(1)}},
			"total":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Number of admissible sizes (before `max_results`)."},
			"instance_types": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The admissible sizes.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":            str("VM size, e.g. `Standard_D4s_v5`."),
					"family":          str("`karpenter.azure.com/sku-family` label value (on EKS pools `karpenter.k8s.aws/instance-family`)."),
					"architecture":    str("`amd64` or `arm64`."),
					"vcpu":            schema.Int64Attribute{Computed: true, MarkdownDescription: "vCPUs."},
					"memory_gib":      schema.Float64Attribute{Computed: true, MarkdownDescription: "Memory in GiB as the VM reports it."},
					"gpu_count":       schema.Int64Attribute{Computed: true, MarkdownDescription: "GPUs."},
					"gpu_name":        str("`karpenter.azure.com/sku-gpu-name` label value, if any (on EKS pools `karpenter.k8s.aws/instance-gpu-name`)."),
					"capacity":        schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Node capacity as Karpenter computes it (cpu, memory, pods, ephemeral-storage, GPUs)."},
					"allocatable":     schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Capacity minus kube-reserved, system-reserved and eviction thresholds."},
					"capacity_types":  schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Capacity types the requirements allow (`on-demand`, `spot`)."},
					"zones":           schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Zones where it is offered; empty when the catalog does not know."},
					"on_demand_price": schema.Float64Attribute{Computed: true, MarkdownDescription: "Hourly on-demand price, in `currency`."},
					"currency": str("ISO 4217 code of `on_demand_price` and `spot_price`: their price table's, never converted (`USD`; `CNY` in AWS's China regions; " +
						"a replace-mode `checks.catalog_path` file may name another)."),
					"spot_price": schema.Float64Attribute{Computed: true, MarkdownDescription: "Hourly spot price, in `currency`: the spot list price where the embedded snapshot has one " +
						"(westeurope, northeurope, swedencentral, francecentral, belgiumcentral), elsewhere an estimate that `spot_price_source` explains."},
					"price_estimated": schema.BoolAttribute{Computed: true, MarkdownDescription: "True when a price of a capacity type the requirements allow is not a list (or override) price of the region."},
					"on_demand_price_source": str("Where `on_demand_price` comes from: `list YYYY-MM-DD` (a list price of the embedded snapshot of that day), " +
						"`override…` (from `checks.catalog_path`), `estimated: …` or `missing: …` (Karpenter's penalty price, `USD 999.0000/h` with the embedded catalog)."),
					"spot_price_source": str("Where `spot_price` comes from, as `on_demand_price_source`; an estimate says how it was made, e.g. " +
						"`estimated: on-demand × 0.185, the median spot/on-demand ratio of Standard_D4s_v5 in 4 region(s) with spot list prices, range 0.185–0.320`."),
				}},
			},
		},
	}
}

func (d *dataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	pool := poolFromConfig(ctx, req.Config.Raw, &resp.Diagnostics)
	nc, ncOK := nodeClassFromConfig(ctx, req.Config.Raw, &resp.Diagnostics)
	if pool == nil || !ncOK {
		return
	}
	if d.data == nil {
		resp.Diagnostics.AddError("Provider not configured", "The karpenter provider was not configured before use.")
		return
	}
	s, err := d.data.Analyzer()
	if err != nil {
		resp.Diagnostics.AddError("Cannot load the SKU catalog", err.Error())
		return
	}
	region := m.Region.ValueString()
	if region == "" {
		region = d.data.Region
	}
	a := s.Analyze(pool, analysis.Options{Region: region, NodeClass: nc})
	for _, f := range a.Findings {
		if f.Code == findings.UnknownRegion {
			resp.Diagnostics.AddAttributeError(path.Root("region"), string(f.Code)+": unknown region", f.Message+". "+f.Fix)
			return
		}
	}
	out := candidates(a)
	sortCandidates(out, m.SortBy.ValueString())
	m.Total = types.Int64Value(int64(len(out)))
	if n := m.MaxResults.ValueInt64(); n > 0 && int(n) < len(out) {
		out = out[:n]
	}
	m.InstanceTypes = out
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// requirementsAttribute is karpenter_nodepool's template.requirements, optional here.
func requirementsAttribute() schema.Attribute {
	a := dataSourceAttribute(requirementsNode(), requirementsPrefix, kinds.NodePool.GVK.Kind).(schema.ListNestedAttribute)
	a.Required, a.Optional = false, true
	a.MarkdownDescription = "NodePool requirements, with the same attributes, meaning and validation as `karpenter_nodepool`'s `template.requirements`."
	return a
}

// nodeClassAttribute takes the karpenter_aksnodeclass attributes that change which sizes qualify.
func nodeClassAttribute() schema.Attribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "AKSNodeClass settings that change which sizes qualify, with the same attributes, meaning and validation as in `karpenter_aksnodeclass`; " +
			"unset fields take the CRD defaults.",
		Attributes: withAliases(dataSourceAttributes(nodeClassNode(), "", kinds.AKSNodeClass.GVK.Kind)),
	}
}

func candidates(a *analysis.Analysis) []instanceModel {
	var out []instanceModel
	seen := map[string]bool{}
	words := cloud.VocabularyOf(a.Cloud())
	for _, c := range a.Admissible {
		it := c.InstanceType
		if seen[it.Name] {
			continue // the same size in another region (no region set): list it once
		}
		seen[it.Name] = true
		label := func(k string) string {
			if r := it.Requirements.Get(k); it.Requirements.Has(k) && r.Len() == 1 {
				return r.Any()
			}
			return ""
		}
		gpus := int64(0)
		for _, r := range words.GPUResources {
			if q, ok := it.Capacity[corev1.ResourceName(r)]; ok {
				gpus += q.Value()
			}
		}
		zones, capTypes := map[string]bool{}, map[string]bool{}
		for _, of := range c.Offerings {
			capTypes[of.CapacityType()] = true
			if z := of.Zone(); it.ZonesKnown && z != "" && z != "0" {
				zones[z] = true
			}
		}
		m := instanceModel{
			Name: types.StringValue(it.Name), Family: types.StringValue(label(words.FamilyKey)),
			Architecture: types.StringValue(label(corev1.LabelArchStable)),
			VCPU:         types.Int64Value(it.Capacity.Cpu().Value()),
			MemoryGiB:    types.Float64Value(it.MemoryGiB),
			GPUCount:     types.Int64Value(gpus), GPUName: types.StringValue(label(words.GPUNameKey)),
			Capacity: quantities(it.Capacity), Allocatable: quantities(it.Allocatable()),
			CapacityTypes: strs(capTypes), Zones: strs(zones),
			OnDemandPrice: types.Float64Value(it.OnDemand.Value), SpotPrice: types.Float64Value(it.Spot.Value), Currency: types.StringValue(money.Code(it.OnDemand.Currency)),
			PriceEstimated: types.BoolValue((capTypes[karpv1.CapacityTypeOnDemand] && it.OnDemand.Estimated()) || (capTypes[karpv1.CapacityTypeSpot] && it.Spot.Estimated())),
			OnDemandSource: types.StringValue(it.OnDemand.Source), SpotSource: types.StringValue(it.Spot.Source),
		}
		out = append(out, m)
	}
	return out
}

func quantities(l corev1.ResourceList) map[string]types.String {
	out := make(map[string]types.String, len(l))
	for k, v := range l {
		out[string(k)] = types.StringValue(v.String())
	}
	return out
}

func strs(m map[string]bool) []types.String {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]types.String, len(keys))
	for i, k := range keys {
		out[i] = types.StringValue(k)
	}
	return out
}

func sortCandidates(c []instanceModel, by string) {
	less := map[string]func(a, b instanceModel) bool{
		"name":   func(a, b instanceModel) bool { return a.Name.ValueString() < b.Name.ValueString() },
		"vcpu":   func(a, b instanceModel) bool { return a.VCPU.ValueInt64() < b.VCPU.ValueInt64() },
		"memory": func(a, b instanceModel) bool { return a.MemoryGiB.ValueFloat64() < b.MemoryGiB.ValueFloat64() },
	}[strings.ToLower(by)]
	if less == nil {
		return // already cheapest first
	}
	sort.SliceStable(c, func(i, j int) bool { return less(c[i], c[j]) })
}
