package validators

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A value that is not an EKS cluster ARN fails on its own path, naming the value, what is
// wrong and a valid ARN; unknown and null values wait.
func TestEKSClusterARN(t *testing.T) {
	p := path.Root("cluster").AtName("eks_cluster_arn")
	for _, tc := range []struct {
		v    types.String
		says string
	}{
		{types.StringValue("arn:aws:eks:eu-west-1:123456789012:cluster/prod"), ""},
		{types.StringUnknown(), ""},
		{types.StringNull(), ""},
		{types.StringValue("prod"), `cluster.eks_cluster_arn = "prod": not an ARN`},
		{types.StringValue("arn:aws:iam::123456789012:role/x"), `service is "iam"`},
	} {
		var resp validator.StringResponse
		EKSClusterARN().ValidateString(context.Background(), validator.StringRequest{Path: p, ConfigValue: tc.v}, &resp)
		if tc.says == "" {
			if resp.Diagnostics.HasError() {
				t.Errorf("%s: %v", tc.v, resp.Diagnostics)
			}
			continue
		}
		if len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Detail(), tc.says) || !strings.Contains(resp.Diagnostics[0].Detail(), "arn:aws:eks:eu-west-1:123456789012:cluster/prod-euw1") {
			t.Errorf("%s: %v, want one error saying %q with a valid example", tc.v, resp.Diagnostics, tc.says)
			continue
		}
		if d, ok := resp.Diagnostics[0].(interface{ Path() path.Path }); !ok || !d.Path().Equal(p) {
			t.Errorf("%s: diagnostic not on %s", tc.v, p)
		}
	}
}
