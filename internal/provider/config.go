package provider

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kube"
)

type providerModel struct {
	Region     types.String     `tfsdk:"region"`
	Kubernetes *kubernetesModel `tfsdk:"kubernetes"`
	Azure      *azureModel      `tfsdk:"azure"`
}

type kubernetesModel struct {
	ConfigPath           types.String `tfsdk:"config_path"`
	ConfigContext        types.String `tfsdk:"config_context"`
	Host                 types.String `tfsdk:"host"`
	ClusterCACertificate types.String `tfsdk:"cluster_ca_certificate"`
	Insecure             types.Bool   `tfsdk:"insecure"`
	Token                types.String `tfsdk:"token"`
	ClientCertificate    types.String `tfsdk:"client_certificate"`
	ClientKey            types.String `tfsdk:"client_key"`
	Exec                 *execModel   `tfsdk:"exec"`
	AKSClusterID         types.String `tfsdk:"aks_cluster_id"`
	UseAdminCredentials  types.Bool   `tfsdk:"use_admin_credentials"`
}

type execModel struct {
	APIVersion types.String      `tfsdk:"api_version"`
	Command    types.String      `tfsdk:"command"`
	Args       []string          `tfsdk:"args"`
	Env        map[string]string `tfsdk:"env"`
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
	AKSClusterID string
	Admin        bool
}

func (c providerModel) kubernetes(_ context.Context, _ *diag.Diagnostics) kubernetesSettings {
	k := c.Kubernetes
	if k == nil {
		k = &kubernetesModel{}
	}
	s := kubernetesSettings{
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
		AKSClusterID: k.AKSClusterID.ValueString(),
		Admin:        k.UseAdminCredentials.ValueBool(),
	}
	if s.AKSClusterID != "" {
		// The cluster ID names the cluster; a kubeconfig from the environment must not compete.
		s.Connection = kube.Connection{}
	}
	if k.Exec != nil {
		s.Exec = &kube.ExecConfig{APIVersion: k.Exec.APIVersion.ValueString(), Command: k.Exec.Command.ValueString(), Args: k.Exec.Args, Env: k.Exec.Env}
	}
	return s
}

func (c providerModel) azureSettings(_ context.Context, diags *diag.Diagnostics) azure.Settings {
	a := c.Azure
	if a == nil {
		a = &azureModel{}
	}
	flag := func(v types.Bool, env, attr string) bool {
		if !v.IsNull() && !v.IsUnknown() {
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

// connector resolves the Kubernetes connection on first use: for AKS through the Azure API.
func connector(k kubernetesSettings, az azure.Settings, opts azure.Options) func(context.Context) (kube.Connection, error) {
	return func(ctx context.Context) (kube.Connection, error) {
		if k.AKSClusterID == "" {
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
		return azure.AKSConnection(ctx, id, cred, copts, k.Admin)
	}
}
