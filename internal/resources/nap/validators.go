package nap

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
)

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
