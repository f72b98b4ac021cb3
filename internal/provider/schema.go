package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/boolvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/validators"
)

func sibling(name string) path.Expression { return path.MatchRelative().AtParent().AtName(name) }

func providerSchema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Manage Karpenter on Azure Kubernetes Service (Node Auto Provisioning) as typed, reviewed code. " +
			"Every setting is optional: `terraform plan` works with no cluster and no Azure account, and clients connect only when an apply or refresh needs them.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Region (Azure, e.g. `westeurope`, or AWS, e.g. `eu-west-1`, as the pools' cloud) that plan-time checks price and check NodePools against. When unset, checks run over all regions and say so. " +
					"With `kubernetes.eks_cluster_name` it defaults to `aws.region`. A resource's `cluster.region` (or the region of its `cluster.eks_cluster_arn`) overrides it for that resource. " +
					"Written as people write it (`West Europe`) it is read as the catalogs name it (`westeurope`); a region no catalog knows is one error on this attribute (or on `aws.region`) naming the nearest regions, unless the checks are disabled or `checks.suppress` lists `KRP114` (a region newer than the catalogs: add it with `checks.catalog_path`).",
			},
			"checks": schema.SingleNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Plan-time provisioning checks of `karpenter_nodepool` against the embedded Azure SKU catalog. They run offline, with no cluster and no Azure credentials.",
				Attributes: map[string]schema.Attribute{
					"enabled": schema.BoolAttribute{Optional: true, MarkdownDescription: "Run the checks (default `true`). CRD validation always runs."},
					"strict":  schema.BoolAttribute{Optional: true, MarkdownDescription: "Report every warning as an error, for CI gates (default `false`)."},
					"cluster_impact": schema.BoolAttribute{Optional: true, MarkdownDescription: "Warn in the plan of an update to a `karpenter_nodepool`, `karpenter_aksnodeclass` or `karpenter_ec2nodeclass` when it drifts running nodes (KRP422; default `true`). " +
						"Only when the provider is connected to the cluster (it refreshed the object): the NodeClaims (and, for a node class, the NodePools) are then listed read-only. Offline plans are unchanged."},
					"suppress": schema.SetAttribute{Optional: true, ElementType: types.StringType, Validators: []validator.Set{crdresource.KnownCodes{}},
						MarkdownDescription: "Finding codes (e.g. `KRP116`) that no resource of this provider reports as a diagnostic, not even in strict mode: " +
							"`karpenter_nodepool` (which adds its own `checks.suppress`), `karpenter_aksnodeclass`, `karpenter_aks_node_auto_provisioning` and the `workloads_yaml` of `karpenter_provisioning_simulation`. " +
							"A pool's `analysis.findings` still lists them."},
					"karpenter_version": schema.StringAttribute{Optional: true, MarkdownDescription: "Karpenter release the cluster runs (e.g. `1.13.1`; for Node Auto Provisioning, the version AKS runs). " +
						"Fields this release does not act on (`consolidationPolicy: Balanced`, the `Gte`/`Lte` operators) are reported as KRP408. Default: the release the provider's CRDs come from (" + analysis.PinnedKarpenterVersion + ")."},
					"feature_gates": schema.StringAttribute{Optional: true, MarkdownDescription: "Karpenter feature gates the cluster runs with, in Karpenter's `FEATURE_GATES` syntax (e.g. `StaticCapacity=true`). " +
						"Default: those of the Azure provider's chart, every alpha gate off, so that `spec.replicas` (StaticCapacity) is reported as KRP408."},
					"catalog_path": schema.StringAttribute{Optional: true, MarkdownDescription: "JSON file that overrides or extends the embedded SKU catalog: new sizes, negotiated or live on-demand and spot prices (with their source), a fresher snapshot. Format: see the prices guide."},
				},
			},
			"kubernetes": kubernetesSchema(),
			"azure":      azureSchema(),
			"aws":        awsSchema(),
		},
	}
}

func kubernetesSchema() schema.SingleNestedAttribute {
	notWithAKS := stringvalidator.ConflictsWith(sibling("aks_cluster_id"))
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "How to reach the cluster's API server: a kubeconfig file, explicit host and credentials, an exec credential plugin, " +
			"`aks_cluster_id`, with which the provider fetches the endpoint through the Azure API and authenticates with an Entra ID token, " +
			"or `eks_cluster_name`, with which it reads the endpoint and CA from the EKS API and signs an EKS token with the `aws` credentials. " +
			"Explicit settings override the kubeconfig's. `KUBE_CONFIG_PATH`, `KUBE_CTX`, `KUBE_HOST` and `KUBE_TOKEN` are read when the attributes are unset. " +
			"A `karpenter_nodepool`, `karpenter_aksnodeclass` or `karpenter_ec2nodeclass` with a `cluster` attribute is managed in that cluster instead, reached through the Azure or the EKS API (see the multi-cluster guide); " +
			"`qps` and `burst` apply to each such cluster too.",
		Attributes: map[string]schema.Attribute{
			"config_path": schema.StringAttribute{Optional: true, MarkdownDescription: "Path to a kubeconfig file; a leading `~/` is the home directory. Env: `KUBE_CONFIG_PATH`.", Validators: []validator.String{notWithAKS}},
			"config_context": schema.StringAttribute{Optional: true, MarkdownDescription: "Context of the kubeconfig to use instead of its current context. Env: `KUBE_CTX`.",
				Validators: []validator.String{stringvalidator.AlsoRequires(sibling("config_path"))}},
			"host":                   schema.StringAttribute{Optional: true, MarkdownDescription: "API server URL, e.g. `https://mycluster.hcp.westeurope.azmk8s.io:443`. Env: `KUBE_HOST`.", Validators: []validator.String{notWithAKS}},
			"cluster_ca_certificate": schema.StringAttribute{Optional: true, MarkdownDescription: "PEM-encoded CA certificate of the API server.", Validators: []validator.String{notWithAKS}},
			"insecure": schema.BoolAttribute{Optional: true, MarkdownDescription: "Skip TLS verification of the API server. Only for tests.",
				// With aks_cluster_id the CA comes from AKS; a silently ignored insecure would mislead.
				Validators: []validator.Bool{boolvalidator.ConflictsWith(sibling("aks_cluster_id"))}},
			"token": schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: "Bearer token. Env: `KUBE_TOKEN`.",
				Validators: []validator.String{notWithAKS, stringvalidator.ConflictsWith(sibling("client_certificate"))}},
			"client_certificate": schema.StringAttribute{Optional: true, MarkdownDescription: "PEM-encoded client certificate for TLS client authentication.",
				Validators: []validator.String{notWithAKS, stringvalidator.AlsoRequires(sibling("client_key"))}},
			"client_key": schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: "PEM-encoded private key of `client_certificate`.",
				Validators: []validator.String{stringvalidator.AlsoRequires(sibling("client_certificate"))}},
			"exec": schema.SingleNestedAttribute{
				Optional:            true,
				MarkdownDescription: "A client-go credential plugin, as a kubeconfig `exec` entry (e.g. `kubelogin get-token`).",
				Attributes: map[string]schema.Attribute{
					"api_version": schema.StringAttribute{Required: true, MarkdownDescription: "e.g. `client.authentication.k8s.io/v1beta1`."},
					"command":     schema.StringAttribute{Required: true, MarkdownDescription: "Command to run."},
					// Sensitive: credential plugins are often handed a token or secret in an argument
					// or the environment, which would otherwise show in plans and logs.
					"args": schema.ListAttribute{Optional: true, Sensitive: true, ElementType: types.StringType, MarkdownDescription: "Arguments. Sensitive: they often carry a token or secret."},
					"env":  schema.MapAttribute{Optional: true, Sensitive: true, ElementType: types.StringType, MarkdownDescription: "Environment variables. Sensitive: they often carry a token or secret."},
				},
			},
			"aks_cluster_id": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Resource ID of an AKS cluster (`/subscriptions/<sub>/resourceGroups/<rg>/providers/Microsoft.ContainerService/managedClusters/<name>`). " +
					"The provider reads the endpoint and CA through the Azure API with the `azure` credentials and authenticates with an Entra ID token; no kubelogin binary is needed. " +
					"Conflicts with the other connection settings.",
				Validators: []validator.String{validators.AKSClusterID(), stringvalidator.ConflictsWith(sibling("exec"))},
			},
			"eks_cluster_name": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Name of an EKS cluster in the `aws.region` (or `AWS_REGION`). The provider reads its endpoint and CA with EKS DescribeCluster and authenticates as `aws eks get-token` does: " +
					"a token that is an STS GetCallerIdentity request presigned for the cluster with the `aws` credentials, signed again before its 15 minutes end; neither the AWS CLI nor aws-iam-authenticator is needed. " +
					"The identity needs `eks:DescribeCluster` and an EKS access entry (or aws-auth mapping) with rights on the Karpenter objects. Conflicts with the other connection settings.",
				Validators: []validator.String{validators.EKSClusterName(), eksConflicts{}},
			},
			"qps": schema.Float64Attribute{
				Optional: true,
				MarkdownDescription: fmt.Sprintf("Requests per second the provider sends to the API server at most, across all resources (default `%d`). "+
					"client-go's own default, 5, caps an apply at about 2.5 objects a second whatever `-parallelism`.", kube.DefaultQPS),
				Validators: []validator.Float64{float64validator.AtLeast(1)},
			},
			"burst": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: fmt.Sprintf("Requests the provider may send at once above `qps` (default `%d`).", kube.DefaultBurst),
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"use_admin_credentials": schema.BoolAttribute{
				Optional: true,
				MarkdownDescription: "With `aks_cluster_id`, use the cluster's local admin credentials instead of Entra ID. Only for clusters with local accounts enabled. " +
					"Also how the AKS clusters that resources name in `cluster.aks_cluster_id` are reached, unless their `cluster.use_admin_credentials` says otherwise.",
				Validators: []validator.Bool{boolvalidator.AlsoRequires(sibling("aks_cluster_id"))},
			},
		},
	}
}

func azureSchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Azure credentials, used for `kubernetes.aks_cluster_id` and the `karpenter_aks_node_auto_provisioning` resource. " +
			"With nothing set, the provider tries environment credentials, workload identity, managed identity and the Azure CLI, in that order. " +
			"`ARM_SUBSCRIPTION_ID`, `ARM_TENANT_ID`, `ARM_CLIENT_ID`, `ARM_CLIENT_SECRET`, `ARM_USE_OIDC`, `ARM_USE_MSI`, `ARM_USE_CLI` and `ARM_ENVIRONMENT` are read when the attributes are unset.",
		Attributes: map[string]schema.Attribute{
			"subscription_id": schema.StringAttribute{Optional: true, MarkdownDescription: "Subscription ID."},
			"tenant_id":       schema.StringAttribute{Optional: true, MarkdownDescription: "Entra ID tenant ID."},
			"client_id":       schema.StringAttribute{Optional: true, MarkdownDescription: "Client ID of a service principal, or of a user-assigned managed identity."},
			"client_secret": schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: "Service principal secret.",
				Validators: []validator.String{stringvalidator.ConflictsWith(sibling("client_certificate_path"))}},
			"client_certificate_path":     schema.StringAttribute{Optional: true, MarkdownDescription: "Path to a PEM or PKCS#12 service principal certificate."},
			"client_certificate_password": schema.StringAttribute{Optional: true, Sensitive: true, MarkdownDescription: "Password of the PKCS#12 certificate."},
			"use_cli":                     schema.BoolAttribute{Optional: true, MarkdownDescription: "Authenticate with the Azure CLI's signed-in account."},
			"use_msi":                     schema.BoolAttribute{Optional: true, MarkdownDescription: "Authenticate with a managed identity."},
			"use_oidc":                    schema.BoolAttribute{Optional: true, MarkdownDescription: "Authenticate with workload identity federation (OIDC), e.g. from GitHub Actions or AKS workload identity."},
			"oidc_token_file_path":        schema.StringAttribute{Optional: true, MarkdownDescription: "File holding the OIDC token (defaults to `AZURE_FEDERATED_TOKEN_FILE`)."},
			"environment": schema.StringAttribute{Optional: true, MarkdownDescription: "Azure cloud: `public` (default), `usgovernment` or `china`.",
				Validators: []validator.String{stringvalidator.OneOf("public", "usgovernment", "china")}},
		},
	}
}
