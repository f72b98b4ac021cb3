package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/client-go/tools/clientcmd"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/datasources/instancetypes"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/datasources/provisioningsimulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/functions"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/aksnodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/ec2nodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/nap"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/nodepool"
)

// Provider is the karpenter provider.
type Provider struct {
	version string
	azure   azure.Options
	aws     awsclient.Options
	// configured is called with the provider data after Configure (tests shorten polling).
	configured func(*providerdata.Data)
}

// Option changes how the provider is built; tests use it to inject Azure SDK fakes.
type Option func(*Provider)

// WithAzureOptions injects ARM client options and a credential (the Azure SDK's fake servers).
func WithAzureOptions(o azure.Options) Option { return func(p *Provider) { p.azure = o } }

// WithAWSOptions injects what the AWS SDK's calls use (an HTTP client).
func WithAWSOptions(o awsclient.Options) Option { return func(p *Provider) { p.aws = o } }

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
	return []func() resource.Resource{nodepool.New, aksnodeclass.New, ec2nodeclass.New, nap.New}
}

// Functions are the provider-defined functions.
func (p *Provider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		functions.NewFromYAML("nodepool_from_yaml", nodepool.Kind, nodepool.New),
		functions.NewFromYAML("aksnodeclass_from_yaml", aksnodeclass.Kind, aksnodeclass.New),
		functions.NewFromYAML("ec2nodeclass_from_yaml", ec2nodeclass.Kind, ec2nodeclass.New),
	}
}

func (p *Provider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{instancetypes.New, provisioningsimulation.New}
}

// Configure reads the settings but connects nowhere: clients are created on first use.
func (p *Provider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	k := cfg.kubernetes(ctx, &resp.Diagnostics)
	az := cfg.azureSettings(ctx, &resp.Diagnostics)
	if _, ok := azure.Clouds[az.Environment]; az.Environment != "" && !ok {
		// The attribute has a validator; this catches ARM_ENVIRONMENT, which would otherwise
		// fail only at the first apply.
		resp.Diagnostics.AddAttributeError(path.Root("azure").AtName("environment"), "Unknown Azure environment",
			fmt.Sprintf("The Azure environment %q (from ARM_ENVIRONMENT) is not one of public, usgovernment or china.", az.Environment))
	}
	if resp.Diagnostics.HasError() {
		return
	}
	var clients *connect.Clients
	clients = connect.New(connector(k, az, cfg.azureUnknown(), cfg.awsUnknown(), p.azure, func() *connect.Clients { return clients }))
	clients.SetAzure(az, p.azure, cfg.azureUnknown())
	awsSettings := cfg.awsSettings(ctx, &resp.Diagnostics)
	clients.SetAWS(awsSettings, p.aws, cfg.awsUnknown())
	clients.SetClusterConnector(clusterConnector(k, clients))
	region, regionAt := cfg.Region.ValueString(), path.Root("region")
	if cfg.Region.IsNull() && k.EKSClusterName != "" {
		// The provider's cluster is in aws.region: its pools are priced there.
		region, regionAt = awsSettings.Region, path.Root("aws").AtName("region")
	}
	data := providerdata.New(region, clients)
	if k.AKSClusterID != "" {
		data.OwnCluster = connect.ClusterKey(k.AKSClusterID)
	}
	data.OwnAdmin = k.Admin
	data.OwnConnection = k.AKSClusterID != "" || k.EKSClusterName != "" || k.ConfigPath != "" || k.Host != "" || k.Exec != nil || len(k.Unknown) > 0
	data.Checks = cfg.checks(ctx, &resp.Diagnostics)
	data.Region = checkRegion(data, regionAt, &resp.Diagnostics)
	if p.configured != nil {
		p.configured(data)
	}
	resp.ResourceData = data
	resp.DataSourceData = data
}

// envOr is the attribute's value, or the environment variable when the attribute is unset.
// An unknown value is not unset: it is "" here, and Unknown names it.
func envOr(v types.String, env string) string {
	if v.IsUnknown() {
		return ""
	}
	if !v.IsNull() {
		return v.ValueString()
	}
	return os.Getenv(env)
}

// kubeconfigError says why the kubeconfig file a connection names cannot be used, naming the
// file, where its path came from and what would be valid. It runs on the first client use, not
// in Configure: a plan with nothing in state needs no cluster, so a kubeconfig that is not
// there yet (a CI job that writes it later, another machine's path) must not fail it.
func kubeconfigError(c kube.Connection, source string) error {
	if c.ConfigPath == "" {
		return nil
	}
	fix := fmt.Sprintf(" Point %s at a readable kubeconfig, or remove it to plan without a cluster.", source)
	data, err := os.ReadFile(c.ConfigPath)
	if err != nil {
		return fmt.Errorf("the kubeconfig file %s (from %s) cannot be read: %w.%s", c.ConfigPath, source, err, fix)
	}
	cfg, err := clientcmd.Load(data)
	if err != nil {
		return fmt.Errorf("the file %s (from %s) is not a kubeconfig: %w.%s", c.ConfigPath, source, err, fix)
	}
	if c.ConfigContext != "" {
		if _, ok := cfg.Contexts[c.ConfigContext]; !ok {
			return fmt.Errorf("the kubeconfig %s (from %s) has no context %q (kubernetes.config_context or KUBE_CTX); it has: %s",
				c.ConfigPath, source, c.ConfigContext, strings.Join(slices.Sorted(maps.Keys(cfg.Contexts)), ", "))
		}
	}
	return nil
}

var _ provider.ProviderWithFunctions = (*Provider)(nil)
