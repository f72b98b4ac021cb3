package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
)

// The provider's `aws` block: how it reaches EKS clusters (kubernetes.eks_cluster_name and
// the cluster.eks_cluster_arn of resources).

type awsModel struct {
	Region     types.String `tfsdk:"region"`
	Profile    types.String `tfsdk:"profile"`
	AssumeRole types.Object `tfsdk:"assume_role"`
	Endpoints  types.Object `tfsdk:"endpoints"`
}

type assumeRoleModel struct {
	RoleARN     types.String `tfsdk:"role_arn"`
	SessionName types.String `tfsdk:"session_name"`
}

type endpointsModel struct {
	EKS types.String `tfsdk:"eks"`
	STS types.String `tfsdk:"sts"`
}

var httpURL = stringvalidator.RegexMatches(regexp.MustCompile(`^https?://[^/\s]+`), "must be an http(s) URL, e.g. https://eks.eu-west-1.amazonaws.com")

func awsSchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "AWS credentials, used for `kubernetes.eks_cluster_name` and the `cluster.eks_cluster_arn` of resources. " +
			"Credentials come from the AWS SDK's default chain, as the AWS CLI's do: `AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`/`AWS_SESSION_TOKEN`, " +
			"the shared config and credentials files (`AWS_PROFILE`, SSO included), web identity (`AWS_ROLE_ARN` with `AWS_WEB_IDENTITY_TOKEN_FILE`, e.g. EKS IRSA or GitHub OIDC), " +
			"and container or instance metadata. Nothing is read or called during a plan of new resources.",
		Attributes: map[string]schema.Attribute{
			"region": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Region of `kubernetes.eks_cluster_name` (e.g. `eu-west-1`). Unset: `AWS_REGION`, `AWS_DEFAULT_REGION` or the profile's region. A `cluster.eks_cluster_arn` names its own region.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)}},
			"profile": schema.StringAttribute{Optional: true, MarkdownDescription: "Profile of the shared config files. Unset: `AWS_PROFILE`, else `default`.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
			"assume_role": schema.SingleNestedAttribute{
				Optional:            true,
				MarkdownDescription: "A role assumed with the chain's credentials (`sts:AssumeRole`) for every EKS call and token, e.g. a role of the clusters' account that an EKS access entry admits.",
				Attributes: map[string]schema.Attribute{
					"role_arn": schema.StringAttribute{Required: true, MarkdownDescription: "ARN of the role, e.g. `arn:aws:iam::123456789012:role/karpenter-terraform`.",
						Validators: []validator.String{stringvalidator.RegexMatches(regexp.MustCompile(`^arn:aws[a-z-]*:iam::[0-9]{12}:role/.+`), "must be an IAM role ARN, e.g. arn:aws:iam::123456789012:role/karpenter-terraform")}},
					"session_name": schema.StringAttribute{Optional: true, MarkdownDescription: "Session name of the assumed role (default: the SDK's)."},
				},
			},
			"endpoints": schema.SingleNestedAttribute{
				Optional:            true,
				MarkdownDescription: "Endpoints that replace the public ones, e.g. VPC interface endpoints.",
				Attributes: map[string]schema.Attribute{
					"eks": schema.StringAttribute{Optional: true, MarkdownDescription: "EKS API endpoint (DescribeCluster).", Validators: []validator.String{httpURL}},
					"sts": schema.StringAttribute{Optional: true, MarkdownDescription: "STS endpoint for AssumeRole. The EKS tokens are presigned for it too, and EKS admits only tokens of STS hosts it knows (the regional and global endpoints), so point it at one of those, or at a host your EKS accepts.", Validators: []validator.String{httpURL}},
				},
			},
		},
	}
}

func (c providerModel) awsUnknown() []string { return unknownPaths("aws", c.AWS) }

// awsSettings reads the `aws` block; the SDK reads the environment and files itself, on
// first use.
func (c providerModel) awsSettings(ctx context.Context, diags *diag.Diagnostics) awsclient.Settings {
	var m awsModel
	if c.AWS.IsNull() || c.AWS.IsUnknown() {
		return awsclient.Settings{}
	}
	diags.Append(c.AWS.As(ctx, &m, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
	s := awsclient.Settings{Region: m.Region.ValueString(), Profile: m.Profile.ValueString()}
	if !m.AssumeRole.IsNull() && !m.AssumeRole.IsUnknown() {
		var r assumeRoleModel
		diags.Append(m.AssumeRole.As(ctx, &r, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
		s.RoleARN, s.SessionName = r.RoleARN.ValueString(), r.SessionName.ValueString()
	}
	if !m.Endpoints.IsNull() && !m.Endpoints.IsUnknown() {
		var e endpointsModel
		diags.Append(m.Endpoints.As(ctx, &e, basetypes.ObjectAsOptions{UnhandledUnknownAsEmpty: true})...)
		s.EKSEndpoint, s.STSEndpoint = e.EKS.ValueString(), e.STS.ValueString()
	}
	return s
}

// notWithEKS are the connection settings that name a cluster or its credentials otherwise
// than eks_cluster_name does.
var notWithEKS = []string{"config_path", "host", "cluster_ca_certificate", "insecure", "token", "client_certificate", "exec", "aks_cluster_id"}

// eksConflicts reports each connection setting beside kubernetes.eks_cluster_name, on that
// setting's path, saying which ways to connect are valid.
type eksConflicts struct{}

func (eksConflicts) Description(context.Context) string {
	return "conflicts with " + strings.Join(notWithEKS, ", ")
}

func (v eksConflicts) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (eksConflicts) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() {
		return
	}
	parent := req.Path.ParentPath()
	for _, name := range notWithEKS {
		var v attr.Value
		p := parent.AtName(name)
		if d := req.Config.GetAttribute(ctx, p, &v); d.HasError() || v == nil || v.IsNull() || v.IsUnknown() {
			continue
		}
		resp.Diagnostics.AddAttributeError(p, "Conflicting connection settings", fmt.Sprintf(
			"%s and %s both say how to reach the cluster. With eks_cluster_name the provider reads the endpoint and CA from EKS and signs its own token (credentials from the aws block or the AWS_* environment), "+
				"so %s would name another cluster or credential. Connect one way: eks_cluster_name (with aws.region), aks_cluster_id, or config_path / host with its credentials / exec.",
			req.Path, p, name))
	}
}
