package crdresource

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Import IDs: the plain name (the provider's cluster) as before, or the cluster's AKS ID or EKS
// ARN and the name joined by "//"; anything else is an error saying what would be valid.
func TestParseImportID(t *testing.T) {
	const id = "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks-a"
	const arn = "arn:aws:eks:eu-west-1:123456789012:cluster/eks-a"
	for _, tc := range []struct {
		in, aks, eks, name, err, form string
	}{
		{in: "general", name: "general"},
		{in: id + "//general", aks: id, name: "general"},
		{in: arn + "//general", eks: arn, name: "general"},
		{in: id + "//", err: "no object name", form: "<aks_cluster_id>//<name>"},
		{in: arn + "//", err: "no object name", form: "<eks_cluster_arn>//<name>"},
		{in: "/subscriptions/x/resourceGroups/rg//general", err: "not an AKS cluster ID", form: "<aks_cluster_id>//<name>"},
		{in: "//general", err: "not an AKS cluster ID", form: "<eks_cluster_arn>//<name>"},
		{in: "arn:aws:eks:eu-west-1:123456789012:nodegroup/eks-a/ng//general", err: "not an EKS cluster ARN", form: "arn:aws:eks:eu-west-1:123456789012:cluster/prod-euw1//<name>"},
	} {
		cluster, name, err := parseImportID(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), tc.form) {
				t.Errorf("parseImportID(%q) error = %v, want %q and the valid form %s", tc.in, err, tc.err, tc.form)
			}
			continue
		}
		if err != nil || cluster.AKSClusterID != tc.aks || cluster.EKSClusterARN != tc.eks || name != tc.name {
			t.Errorf("parseImportID(%q) = %+v, %q, %v; want aks %q, eks %q, %q", tc.in, cluster, name, err, tc.aks, tc.eks, tc.name)
		}
	}
}

var clusterType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"aks_cluster_id": tftypes.String, "eks_cluster_arn": tftypes.String, "use_admin_credentials": tftypes.Bool, "region": tftypes.String, "name": tftypes.String,
}}

func clusterValue(attrs map[string]any) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for k, typ := range clusterType.AttributeTypes {
		vals[k] = tftypes.NewValue(typ, attrs[k])
	}
	return tftypes.NewValue(tftypes.Object{AttributeTypes: map[string]tftypes.Type{ClusterAttribute: clusterType}},
		map[string]tftypes.Value{ClusterAttribute: tftypes.NewValue(clusterType, vals)})
}

// An EKS cluster's pools are priced in its ARN's region unless cluster.region says another;
// use_admin_credentials is read as set or unset (the provider's).
func TestTargetOfEKSCluster(t *testing.T) {
	const arn = "arn:aws:eks:eu-west-1:123456789012:cluster/eks-a"
	tg := target(clusterValue(map[string]any{"eks_cluster_arn": arn}))
	if tg.EKSClusterARN != arn || tg.Region != "eu-west-1" || tg.RegionUnknown || tg.IDUnknown || tg.Admin != nil {
		t.Errorf("target = %+v, want the ARN and its region eu-west-1", tg)
	}
	if tg := target(clusterValue(map[string]any{"eks_cluster_arn": arn, "region": "us-east-1"})); tg.Region != "us-east-1" {
		t.Errorf("target with region = %+v, want us-east-1", tg)
	}
	tg = target(clusterValue(map[string]any{"aks_cluster_id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/a", "use_admin_credentials": false}))
	if tg.Admin == nil || *tg.Admin || tg.Region != "" {
		t.Errorf("target = %+v, want admin explicitly false, the provider's region", tg)
	}
	if tg := target(clusterValue(map[string]any{"eks_cluster_arn": tftypes.UnknownValue})); !tg.IDUnknown || !tg.RegionUnknown {
		t.Errorf("target with an unknown ARN = %+v, want ID and region unknown", tg)
	}
}

// The cluster attribute names its cluster once, and admin credentials only of an AKS cluster:
// each error on the attribute at fault, with what is valid.
func TestOneClusterID(t *testing.T) {
	obj := func(attrs map[string]attr.Value) types.Object {
		all := map[string]attr.Value{"aks_cluster_id": types.StringNull(), "eks_cluster_arn": types.StringNull(), "use_admin_credentials": types.BoolNull(), "region": types.StringNull(), "name": types.StringNull()}
		typs := map[string]attr.Type{"aks_cluster_id": types.StringType, "eks_cluster_arn": types.StringType, "use_admin_credentials": types.BoolType, "region": types.StringType, "name": types.StringType}
		for k, v := range attrs {
			all[k] = v
		}
		return types.ObjectValueMust(typs, all)
	}
	const id, arn = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/a", "arn:aws:eks:eu-west-1:123456789012:cluster/eks-a"
	root := path.Root(ClusterAttribute)
	for _, tc := range []struct {
		name  string
		attrs map[string]attr.Value
		at    path.Path
		says  string
	}{
		{"aks", map[string]attr.Value{"aks_cluster_id": types.StringValue(id), "use_admin_credentials": types.BoolValue(true)}, path.Path{}, ""},
		{"eks", map[string]attr.Value{"eks_cluster_arn": types.StringValue(arn)}, path.Path{}, ""},
		{"unknown arn", map[string]attr.Value{"eks_cluster_arn": types.StringUnknown()}, path.Path{}, ""},
		{"both", map[string]attr.Value{"aks_cluster_id": types.StringValue(id), "eks_cluster_arn": types.StringValue(arn)}, root.AtName("eks_cluster_arn"), "sets both"},
		{"neither", map[string]attr.Value{"region": types.StringValue("eu-west-1")}, root, "names no cluster"},
		{"admin on eks", map[string]attr.Value{"eks_cluster_arn": types.StringValue(arn), "use_admin_credentials": types.BoolValue(false)}, root.AtName("use_admin_credentials"), "aws.assume_role"},
	} {
		var resp validator.ObjectResponse
		oneClusterID{}.ValidateObject(context.Background(), validator.ObjectRequest{Path: root, ConfigValue: obj(tc.attrs)}, &resp)
		if tc.says == "" {
			if resp.Diagnostics.HasError() {
				t.Errorf("%s: %v", tc.name, resp.Diagnostics)
			}
			continue
		}
		if len(resp.Diagnostics) != 1 {
			t.Errorf("%s: diagnostics %v, want one", tc.name, resp.Diagnostics)
			continue
		}
		d := resp.Diagnostics[0]
		dp, _ := d.(interface{ Path() path.Path })
		if dp == nil || !dp.Path().Equal(tc.at) || !strings.Contains(d.Detail(), tc.says) || (tc.name != "admin on eks" && !strings.Contains(d.Detail(), "arn:aws:eks:eu-west-1:123456789012:cluster/prod-euw1")) {
			t.Errorf("%s: %s at %v: %s; want at %s, saying %q with a valid example", tc.name, d.Summary(), dp, d.Detail(), tc.at, tc.says)
		}
	}
}
