package instancetypes

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/aksnodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/nodepool"
)

// The data source's inputs have the types of the resources' attributes they stand for, so
// that a value written for karpenter_nodepool or karpenter_aksnodeclass fits it unchanged.
func TestInputsHaveTheResourcesTypes(t *testing.T) {
	ctx := context.Background()
	var ds datasource.SchemaResponse
	New().Schema(ctx, datasource.SchemaRequest{}, &ds)
	var np, nc resource.SchemaResponse
	nodepool.New().Schema(ctx, resource.SchemaRequest{}, &np)
	aksnodeclass.New().Schema(ctx, resource.SchemaRequest{}, &nc)

	pairs := map[string][2]path.Path{"requirements": {path.Root("requirements"), path.Root("template").AtName("requirements")}}
	for _, name := range nodeClassFields {
		pairs[name] = [2]path.Path{path.Root("node_class").AtName(name), path.Root(name)}
	}
	for name, p := range pairs {
		got, d := ds.Schema.TypeAtPath(ctx, p[0])
		if d.HasError() {
			t.Fatalf("%s: %v", name, d)
		}
		res := np.Schema
		if name != "requirements" {
			res = nc.Schema
		}
		want, d := res.TypeAtPath(ctx, p[1])
		if d.HasError() {
			t.Fatalf("%s: %v", name, d)
		}
		if !got.Equal(want) {
			t.Errorf("%s: data source type %s, resource type %s", name, got, want)
		}
	}
}
