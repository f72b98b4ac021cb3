package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
)

// EKSClusterARN checks at plan time that a value is an EKS cluster ARN
// (arn:<partition>:eks:<region>:<account>:cluster/<name>), so that a wrong one (a node group's,
// an IAM role's, a bare name) fails on the attribute with a valid example instead of at apply.
func EKSClusterARN() validator.String { return clusterARN{} }

type clusterARN struct{}

func (clusterARN) Description(context.Context) string {
	return "must be an EKS cluster ARN, arn:<partition>:eks:<region>:<account>:cluster/<name>"
}

func (v clusterARN) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (clusterARN) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := awsclient.ParseClusterARN(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid EKS cluster ARN", fmt.Sprintf("%s = %q: %v.", req.Path, req.ConfigValue.ValueString(), err))
	}
}

// EKSClusterName checks that a value is an EKS cluster name.
func EKSClusterName() validator.String { return clusterName{} }

type clusterName struct{}

func (clusterName) Description(context.Context) string {
	return "must be an EKS cluster name: 1-100 letters, digits, hyphens and underscores, starting with a letter or digit"
}

func (v clusterName) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (clusterName) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := awsclient.CheckClusterName(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid EKS cluster name", fmt.Sprintf("%s: %v. Give the cluster's name, not its ARN or endpoint.", req.Path, err))
	}
}
