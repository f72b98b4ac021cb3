package provider

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/connect"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
)

// The blocks and collections are framework values, not Go structs and slices, because any
// of them may be unknown during plan (e.g. `aks_cluster_id = azurerm_kubernetes_cluster.x.id`
// or a whole `kubernetes = local.conn`), and a plan must still succeed then.
type providerModel struct {
	Region     types.String `tfsdk:"region"`
	Checks     types.Object `tfsdk:"checks"`
	Kubernetes types.Object `tfsdk:"kubernetes"`
	Azure      types.Object `tfsdk:"azure"`
	AWS        types.Object `tfsdk:"aws"`
}

// checks reads the `checks` block; unknown values count as unset.
func (c providerModel) checks(ctx context.Context, diags *diag.Diagnostics) providerdata.Checks {
	var m checksModel
	// Strict mode and suppression shape diagnostics only; the others shape the analysis a plan computes.
	unknown := slices.DeleteFunc(unknownPaths("checks", c.Checks), func(p string) bool {
		return p == "checks.strict" || p == "checks.suppress" || p == "checks.cluster_impact"
	})
	if c.Region.IsUnknown() {
		unknown = append([]string{"region"}, unknown...)
	}
	if c.Checks.IsNull() || c.Checks.IsUnknown() {
		return providerdata.Checks{Unknown: unknown}
	}
	diags.Append(c.Checks.As(ctx, &m, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	target, err := analysis.ParseTarget(m.KarpenterVersion.ValueString(), m.FeatureGates.ValueString())
	if err != nil {
		name := "feature_gates"
		if _, verr := analysis.ParseTarget(m.KarpenterVersion.ValueString(), ""); verr != nil {
			name = "karpenter_version"
		}
		diags.AddAttributeError(path.Root("checks").AtName(name), "Invalid checks."+name, err.Error())
	}
	var suppress []findings.Code
	if !m.Suppress.IsNull() && !m.Suppress.IsUnknown() {
		var codes []types.String
		diags.Append(m.Suppress.ElementsAs(ctx, &codes, false)...)
		for _, c := range codes {
			if !c.IsNull() && !c.IsUnknown() {
				// KnownCodes has rejected anything but a registered code (in either case).
				suppress = append(suppress, findings.Code(strings.ToUpper(c.ValueString())))
			}
		}
	}
	return providerdata.Checks{
		Suppress: suppress,
		Disabled: !m.Enabled.IsNull() && !m.Enabled.IsUnknown() && !m.Enabled.ValueBool(),
		Strict:   m.Strict.ValueBool(),
		// Unknown counts as off: the warning it switches is a diagnostic, not part of the plan.
		NoClusterImpact: !m.ClusterImpact.IsNull() && (m.ClusterImpact.IsUnknown() || !m.ClusterImpact.ValueBool()),
		CatalogPath:     m.CatalogPath.ValueString(),
		Unknown:         unknown,
		Target:          target,
	}
}

type checksModel struct {
	ClusterImpact types.Bool   `tfsdk:"cluster_impact"`
	Enabled       types.Bool   `tfsdk:"enabled"`
	Strict        types.Bool   `tfsdk:"strict"`
	Suppress      types.Set    `tfsdk:"suppress"`
	CatalogPath   types.String `tfsdk:"catalog_path"`
	// The Karpenter the cluster runs (internal/analysis Target).
	KarpenterVersion types.String `tfsdk:"karpenter_version"`
	FeatureGates     types.String `tfsdk:"feature_gates"`
}

type kubernetesModel struct {
	ConfigPath           types.String  `tfsdk:"config_path"`
	ConfigContext        types.String  `tfsdk:"config_context"`
	Host                 types.String  `tfsdk:"host"`
	ClusterCACertificate types.String  `tfsdk:"cluster_ca_certificate"`
	Insecure             types.Bool    `tfsdk:"insecure"`
	Token                types.String  `tfsdk:"token"`
	ClientCertificate    types.String  `tfsdk:"client_certificate"`
	ClientKey            types.String  `tfsdk:"client_key"`
	Exec                 types.Object  `tfsdk:"exec"`
	AKSClusterID         types.String  `tfsdk:"aks_cluster_id"`
	EKSClusterName       types.String  `tfsdk:"eks_cluster_name"`
	UseAdminCredentials  types.Bool    `tfsdk:"use_admin_credentials"`
	QPS                  types.Float64 `tfsdk:"qps"`
	Burst                types.Int64   `tfsdk:"burst"`
}

type execModel struct {
	APIVersion types.String `tfsdk:"api_version"`
	Command    types.String `tfsdk:"command"`
	Args       types.List   `tfsdk:"args"`
	Env        types.Map    `tfsdk:"env"`
}

type azureModel struct {
	SubscriptionID            types.String `tfsdk:"subscription_id"`
	TenantID                  types.String `tfsdk:"tenant_id"`
	ClientID                  types.String `tfsdk:"client_id"`
	ClientSecret              types.String `tfsdk:"client_secret"`
	ClientCertificatePath     types.String `tfsdk:"client_certificate_path"`
	ClientCertificatePassword types.String `tfsdk:"client_certificate_password"`
	UseCLI                    types.Bool   `tfsdk:"use_cli"`
	UseMSI                    types.Bool   `tfsdk:"use_msi"`
	UseOIDC                   types.Bool   `tfsdk:"use_oidc"`
	OIDCTokenFilePath         types.String `tfsdk:"oidc_token_file_path"`
	Environment               types.String `tfsdk:"environment"`
}

// kubernetesSettings is the resolved `kubernetes` block.
type kubernetesSettings struct {
	kube.Connection
	AKSClusterID   string
	EKSClusterName string
	Admin          bool
	// Unknown lists the settings whose values are known only after apply.
	Unknown []string
	// ConfigPathSource names where ConfigPath came from, for errors.
	ConfigPathSource string
}

func (c providerModel) kubernetes(ctx context.Context, diags *diag.Diagnostics) kubernetesSettings {
	unknown := unknownPaths("kubernetes", c.Kubernetes)
	if c.Kubernetes.IsUnknown() {
		// Not even the environment applies: the block, once known, may name another cluster.
		return kubernetesSettings{Unknown: unknown}
	}
	k := &kubernetesModel{}
	if !c.Kubernetes.IsNull() {
		diags.Append(c.Kubernetes.As(ctx, k, basetypes.ObjectAsOptions{})...)
	}
	s := kubernetesSettings{
		Unknown: unknown,
		Connection: kube.Connection{
			ConfigPath:           envOr(k.ConfigPath, "KUBE_CONFIG_PATH"),
			ConfigContext:        envOr(k.ConfigContext, "KUBE_CTX"),
			Host:                 envOr(k.Host, "KUBE_HOST"),
			ClusterCACertificate: []byte(k.ClusterCACertificate.ValueString()),
			Insecure:             k.Insecure.ValueBool(),
			Token:                envOr(k.Token, "KUBE_TOKEN"),
			ClientCertificate:    []byte(k.ClientCertificate.ValueString()),
			ClientKey:            []byte(k.ClientKey.ValueString()),
		},
		AKSClusterID:   k.AKSClusterID.ValueString(),
		EKSClusterName: k.EKSClusterName.ValueString(),
		Admin:          k.UseAdminCredentials.ValueBool(),
	}
	s.ConfigPathSource = "kubernetes.config_path"
	if k.ConfigPath.IsNull() {
		s.ConfigPathSource = "KUBE_CONFIG_PATH"
	}
	if s.AKSClusterID != "" || k.AKSClusterID.IsUnknown() || s.EKSClusterName != "" || k.EKSClusterName.IsUnknown() {
		// The cluster ID or name names the cluster; a kubeconfig from the environment must not compete.
		s.Connection = kube.Connection{}
	}
	// The rate limit applies to whichever way the cluster is reached, AKS included.
	s.QPS, s.Burst = float32(k.QPS.ValueFloat64()), int(k.Burst.ValueInt64())
	s.ConfigPath = expandHome(s.ConfigPath)
	if !k.Exec.IsNull() && !k.Exec.IsUnknown() {
		var e execModel
		diags.Append(k.Exec.As(ctx, &e, basetypes.ObjectAsOptions{})...)
		s.Exec = &kube.ExecConfig{APIVersion: e.APIVersion.ValueString(), Command: e.Command.ValueString()}
		if !e.Args.IsNull() && !e.Args.IsUnknown() && !slices.Contains(s.Unknown, "kubernetes.exec.args") {
			diags.Append(e.Args.ElementsAs(ctx, &s.Exec.Args, false)...)
		}
		if !e.Env.IsNull() && !e.Env.IsUnknown() && !slices.Contains(s.Unknown, "kubernetes.exec.env") {
			diags.Append(e.Env.ElementsAs(ctx, &s.Exec.Env, false)...)
		}
	}
	return s
}

// unknownPaths names the values under v that are not known yet: v itself, or its attributes
// and elements. A collection with an unknown element is reported as the collection.
func unknownPaths(name string, v attr.Value) []string {
	if v == nil || v.IsNull() {
		return nil
	}
	if v.IsUnknown() {
		return []string{name}
	}
	var elems []attr.Value
	switch t := v.(type) {
	case basetypes.ObjectValue:
		var out []string
		for _, k := range slices.Sorted(maps.Keys(t.Attributes())) {
			out = append(out, unknownPaths(name+"."+k, t.Attributes()[k])...)
		}
		return out
	case basetypes.ListValue:
		elems = t.Elements()
	case basetypes.MapValue:
		elems = slices.Collect(maps.Values(t.Elements()))
	}
	for _, e := range elems {
		if len(unknownPaths(name, e)) > 0 {
			return []string{name}
		}
	}
	return nil
}

// expandHome resolves a leading ~/ as shells do, since config_path = "~/.kube/config" is the
// common spelling and client-go reads the path literally.
func expandHome(p string) string {
	rest, ok := strings.CutPrefix(p, "~/")
	if !ok {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, rest)
}

func (c providerModel) azureUnknown() []string { return unknownPaths("azure", c.Azure) }

func (c providerModel) azureSettings(ctx context.Context, diags *diag.Diagnostics) azure.Settings {
	a := &azureModel{}
	if !c.Azure.IsNull() && !c.Azure.IsUnknown() {
		diags.Append(c.Azure.As(ctx, a, basetypes.ObjectAsOptions{})...)
	}
	flag := func(v types.Bool, env, attr string) bool {
		if v.IsUnknown() {
			return false
		}
		if !v.IsNull() {
			return v.ValueBool()
		}
		e := os.Getenv(env)
		if e == "" {
			return false
		}
		b, err := strconv.ParseBool(e)
		if err != nil {
			diags.AddAttributeError(path.Root("azure").AtName(attr), "Invalid environment variable", fmt.Sprintf("%s=%q is not a boolean (use true or false).", env, e))
		}
		return b
	}
	return azure.Settings{
		SubscriptionID:            envOr(a.SubscriptionID, "ARM_SUBSCRIPTION_ID"),
		TenantID:                  envOr(a.TenantID, "ARM_TENANT_ID"),
		ClientID:                  envOr(a.ClientID, "ARM_CLIENT_ID"),
		ClientSecret:              envOr(a.ClientSecret, "ARM_CLIENT_SECRET"),
		ClientCertificatePath:     envOr(a.ClientCertificatePath, "ARM_CLIENT_CERTIFICATE_PATH"),
		ClientCertificatePassword: envOr(a.ClientCertificatePassword, "ARM_CLIENT_CERTIFICATE_PASSWORD"),
		UseCLI:                    flag(a.UseCLI, "ARM_USE_CLI", "use_cli"),
		UseMSI:                    flag(a.UseMSI, "ARM_USE_MSI", "use_msi"),
		UseOIDC:                   flag(a.UseOIDC, "ARM_USE_OIDC", "use_oidc"),
		OIDCTokenFilePath:         envOr(a.OIDCTokenFilePath, "ARM_OIDC_TOKEN_FILE_PATH"),
		Environment:               envOr(a.Environment, "ARM_ENVIRONMENT"),
	}
}

// connector resolves the Kubernetes connection on first use: for AKS through the Azure API,
// for EKS through the EKS API with the AWS configuration clients() holds. azUnknown and
// awsUnknown name the azure and aws settings not known yet, which matter only for AKS and EKS.
func connector(k kubernetesSettings, az azure.Settings, azUnknown, awsUnknown []string, opts azure.Options, clients func() *connect.Clients) func(context.Context) (kube.Connection, error) {
	return func(ctx context.Context) (kube.Connection, error) {
		unknown := k.Unknown
		if k.AKSClusterID != "" || slices.Contains(k.Unknown, "kubernetes.aks_cluster_id") {
			unknown = append(slices.Clip(unknown), azUnknown...)
		}
		if k.EKSClusterName != "" || slices.Contains(k.Unknown, "kubernetes.eks_cluster_name") {
			unknown = append(slices.Clip(unknown), awsUnknown...)
		}
		if len(unknown) > 0 {
			// Connecting with the remaining settings could reach another cluster (e.g. the one
			// in KUBE_CONFIG_PATH), so nothing is connected until Terraform knows them all.
			return kube.Connection{}, fmt.Errorf("the provider's connection settings %s are known only after apply, so the cluster cannot be reached during this plan. "+
				"Plans of new resources do not need the cluster; to refresh existing ones, apply the resources those settings depend on first (e.g. with -target)",
				strings.Join(unknown, ", "))
		}
		if k.EKSClusterName != "" {
			s, cfg, err := clients().AWS(ctx)
			if err != nil {
				return kube.Connection{}, err
			}
			conn, err := awsclient.EKSConnection(ctx, cfg, s, awsclient.Cluster{Name: k.EKSClusterName})
			conn.QPS, conn.Burst = k.QPS, k.Burst
			return conn, err
		}
		if k.AKSClusterID == "" {
			if err := kubeconfigError(k.Connection, k.ConfigPathSource); err != nil {
				return kube.Connection{}, err
			}
			return k.Connection, nil
		}
		id, err := azure.ParseClusterID(k.AKSClusterID)
		if err != nil {
			return kube.Connection{}, err
		}
		cred, err := az.Credential(opts)
		if err != nil {
			return kube.Connection{}, fmt.Errorf("azure credentials: %w", err)
		}
		copts, err := az.ClientOptions(opts)
		if err != nil {
			return kube.Connection{}, err
		}
		conn, err := azure.AKSConnection(ctx, id, cred, copts, k.Admin)
		conn.QPS, conn.Burst = k.QPS, k.Burst
		return conn, err
	}
}

// clusterConnector reaches a cluster that a resource names in its `cluster` attribute: an AKS
// cluster through the Azure API with the provider's `azure` credential, an EKS cluster through
// the EKS API in its ARN's region with the provider's `aws` configuration (one for the whole
// fleet, so one token or credential cache), rate-limited as the provider's kubernetes block
// says, per cluster.
func clusterConnector(k kubernetesSettings, clients *connect.Clients) func(context.Context, connect.Cluster) (kube.Connection, error) {
	return func(ctx context.Context, cl connect.Cluster) (kube.Connection, error) {
		var conn kube.Connection
		var err error
		if cl.EKSClusterARN != "" {
			arn, perr := awsclient.ParseClusterARN(cl.EKSClusterARN)
			if perr != nil {
				return kube.Connection{}, perr
			}
			s, cfg, cerr := clients.AWS(ctx)
			if cerr != nil {
				return kube.Connection{}, cerr
			}
			conn, err = awsclient.EKSConnection(ctx, cfg, s, awsclient.ClusterOf(arn))
		} else {
			id, perr := azure.ParseClusterID(cl.AKSClusterID)
			if perr != nil {
				return kube.Connection{}, perr
			}
			_, cred, copts, cerr := clients.Azure()
			if cerr != nil {
				return kube.Connection{}, cerr
			}
			conn, err = azure.AKSConnection(ctx, id, cred, copts, cl.Admin)
		}
		conn.QPS, conn.Burst = k.QPS, k.Burst
		return conn, err
	}
}
