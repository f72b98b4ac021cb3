package nap

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/azure"
)

// clusterIDValidator checks cluster_id at plan time, so that a wrong ID (a VNet's, a cluster
// without resource group) fails on the attribute instead of at apply with an ARM error.
type clusterIDValidator struct{}

func (clusterIDValidator) Description(context.Context) string {
	return "must be the resource ID of a Microsoft.ContainerService/managedClusters resource"
}

func (v clusterIDValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (clusterIDValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := azure.ParseClusterID(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid AKS cluster ID", fmt.Sprintf("%q is not an AKS cluster resource ID: %v.", req.ConfigValue.ValueString(), err))
	}
}

// networkScopesValidator checks each scope is a VNet or subnet ID, and that no scope is
// listed twice in different case (Azure IDs are case-insensitive, a set is not).
type networkScopesValidator struct{}

func (networkScopesValidator) Description(context.Context) string {
	return "each element must be the resource ID of a virtual network or subnet"
}

func (v networkScopesValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (networkScopesValidator) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]string{}
	for _, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() || s.IsNull() {
			continue
		}
		id := s.ValueString()
		p := req.Path.AtSetValue(s)
		if _, err := azure.ParseNetworkScope(id); err != nil {
			resp.Diagnostics.AddAttributeError(p, "Invalid network contributor scope", fmt.Sprintf("%q: %v.", id, err))
			continue
		}
		k := strings.ToLower(strings.TrimSuffix(id, "/"))
		if prev, dup := seen[k]; dup {
			resp.Diagnostics.AddAttributeError(p, "Duplicate network contributor scope", fmt.Sprintf("%q and %q name the same resource (Azure IDs ignore case).", prev, id))
		}
		seen[k] = id
	}
}
