package crdresource

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// KnownCodes rejects suppressions of codes the registry does not know, so that a typo does not
// silently suppress nothing (the review command's --suppress does the same): for the provider's and a NodePool's checks.suppress.
type KnownCodes struct{}

func (KnownCodes) Description(context.Context) string {
	return "each element must be a finding code such as KRP104"
}

func (v KnownCodes) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (KnownCodes) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	for _, e := range req.ConfigValue.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if _, err := findings.ParseCodes(s.ValueString()); err != nil || strings.Contains(s.ValueString(), ",") {
			var codes []string
			for _, r := range findings.All() {
				codes = append(codes, string(r.Code))
			}
			at := req.Path.AtSetValue(s)
			resp.Diagnostics.AddAttributeError(ShownPath(at), "Unknown finding code",
				fmt.Sprintf("Attribute %s: %q is not a finding code. Known codes: %s (see the plan-time findings guide).", req.Path, s.ValueString(), strings.Join(codes, ", ")))
		}
	}
}
