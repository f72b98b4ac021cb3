package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
)

// AKSClusterID checks at plan time that a value is an AKS managed cluster resource ID, so that
// a wrong ID (a VNet's, one without resource group) fails on the attribute instead of at apply
// with an ARM error.
func AKSClusterID() validator.String { return clusterID{} }

type clusterID struct{}

func (clusterID) Description(context.Context) string {
	return "must be the resource ID of a Microsoft.ContainerService/managedClusters resource"
}

func (v clusterID) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (clusterID) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := azure.ParseClusterID(req.ConfigValue.ValueString()); err != nil {
		// Terraform shows only the enclosing block's line for nested attributes, so the detail
		// names the attribute and its value itself.
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid AKS cluster ID", fmt.Sprintf("%s = %q: %v.", req.Path, req.ConfigValue.ValueString(), err))
	}
}
