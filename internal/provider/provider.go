// Package provider is the karpenter Terraform provider: its configuration, and the list of
// resources, data sources and functions it serves.
package provider

import (
	"context"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/aksnodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/nodepool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
)

// Provider is the karpenter provider.
type Provider struct {
	version string
	azure   azure.Options
	// configured is called with the provider data after Configure (tests shorten polling).
	configured func(*providerdata.Data)
}

// Option changes how the provider is built; tests use it to inject Azure SDK fakes.
type Option func(*Provider)

// WithAzureOptions injects ARM client options and a credential (the Azure SDK's fake servers).
func WithAzureOptions(o azure.Options) Option { return func(p *Provider) { p.azure = o } }

// WithConfigured is called with the provider data after each Configure.
func WithConfigured(fn func(*providerdata.Data)) Option {
	return func(p *Provider) { p.configured = fn }
}

// New returns the provider constructor that providerserver serves.
func New(version string, opts ...Option) func() provider.Provider {
	return func() provider.Provider {
		p := &Provider{version: version}
		for _, o := range opts {
			o(p)
		}
		return p
	}
}

func (p *Provider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "karpenter"
	resp.Version = p.version
}

func (p *Provider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerSchema()
}

func (p *Provider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{nodepool.New, aksnodeclass.New}
}

func (p *Provider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// Configure reads the settings but connects nowhere: clients are created on first use.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	k := cfg.kubernetes(ctx, &resp.Diagnostics)
	az := cfg.azureSettings(ctx, &resp.Diagnostics)
	if k.ConfigPath != "" {
		if _, err := os.Stat(k.ConfigPath); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("kubernetes").AtName("config_path"), "Kubeconfig cannot be read",
				"The kubeconfig file "+k.ConfigPath+" cannot be read: "+err.Error()+". Point config_path (or KUBE_CONFIG_PATH) at a readable kubeconfig, or remove it to plan without a cluster.")
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	data := providerdata.New(cfg.Region.ValueString(), connector(k, az, p.azure))
	if p.configured != nil {
		p.configured(data)
	}
	resp.ResourceData = data
	resp.DataSourceData = data
}

func envOr(v types.String, env string) string {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueString()
	}
	return os.Getenv(env)
}
