package source

import (
	"context"
	"slices"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/aksnodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/nodepool"
)

// Every attribute of the resources is either a CRD field of the tree or one of the resource
// attributes the review knows to skip; otherwise plans of this very version would be
// reported as coming from another one (KRP007).
func TestPlanResourceAttributesInStep(t *testing.T) {
	ctx := context.Background()
	for _, r := range []struct {
		res  fwresource.Resource
		kind *crdresource.Kind
	}{{nodepool.New(), nodepool.Kind}, {aksnodeclass.New(), aksnodeclass.Kind}} {
		var md fwresource.MetadataResponse
		r.res.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "karpenter"}, &md)
		kind, ok := planKinds[md.TypeName]
		if !ok {
			t.Fatalf("resource %s is not reviewed from plans", md.TypeName)
		}
		if kind != r.kind.Kind {
			t.Errorf("plans' %s are read as %s, but the resource manages %s", md.TypeName, kind, r.kind.Kind)
		}
		var resp fwresource.SchemaResponse
		r.res.Schema(ctx, fwresource.SchemaRequest{}, &resp)
		tree := kind.Tree()
		for name := range resp.Schema.Attributes {
			if tree.Child(name) == nil && !slices.Contains(planResourceAttrs, name) {
				t.Errorf("%s.%s is neither a CRD field nor in planResourceAttrs", md.TypeName, name)
			}
		}
	}
}
