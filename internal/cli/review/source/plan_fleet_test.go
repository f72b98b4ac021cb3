package source

import "testing"

// A plan's resources that name an EKS cluster by ARN are reviewed as that cluster, in the
// ARN's region unless cluster.region says another, and named after it; AKS IDs as before.
func TestPlanClusterEKS(t *testing.T) {
	const arn = "arn:aws:eks:eu-west-1:123456789012:cluster/eks-prod"
	for _, tc := range []struct {
		cluster                map[string]any
		id, name, region, want string
	}{
		{map[string]any{"eks_cluster_arn": arn}, arn, "", "eu-west-1", "eks-prod"},
		{map[string]any{"eks_cluster_arn": arn, "region": "us-east-1", "name": "prod"}, arn, "prod", "us-east-1", "prod"},
		{map[string]any{"aks_cluster_id": "/subscriptions/S/resourceGroups/RG/providers/Microsoft.ContainerService/managedClusters/AKS-A"},
			"/subscriptions/s/resourcegroups/rg/providers/microsoft.containerservice/managedclusters/aks-a", "", "", "aks-a"},
	} {
		id, name, region := planCluster(map[string]any{"cluster": tc.cluster})
		if id != tc.id || name != tc.name || region != tc.region {
			t.Errorf("planCluster(%v) = %q, %q, %q; want %q, %q, %q", tc.cluster, id, name, region, tc.id, tc.name, tc.region)
		}
		fc := fleetClusters{}
		fc.add(id, name)
		if got := fc.key(DefaultProvider, id); got != tc.want {
			t.Errorf("cluster key of %v = %q, want %q", tc.cluster, got, tc.want)
		}
	}
}
