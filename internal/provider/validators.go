package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/azure"
)

// clusterIDValidator checks that a value is an AKS managed cluster resource ID.
type clusterIDValidator struct{}

func (clusterIDValidator) Description(context.Context) string {
	return "must be an AKS managed cluster resource ID"
}

func (v clusterIDValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (clusterIDValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := azure.ParseClusterID(req.ConfigValue.ValueString()); err != nil {
		// Terraform shows only the provider block's line for nested attributes, so the detail
		// names the attribute and its value itself.
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid AKS cluster ID", fmt.Sprintf("%s = %q: %v.", req.Path, req.ConfigValue.ValueString(), err))
	}
}
