package source

import (
	"strings"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
)

// planCluster reads a resource's `cluster` attribute (the fleet target of karpenter_nodepool
// and the node-class resources): the AKS cluster ID (lower-cased: ARM IDs are case-insensitive)
// or the EKS cluster ARN when known, the region and name it sets. An EKS cluster's region
// defaults to its ARN's, as the provider's checks price it.
func planCluster(attrs map[string]any) (id, name, region string) {
	c, _ := attrs["cluster"].(map[string]any)
	id, _ = c["aks_cluster_id"].(string)
	id = strings.ToLower(id)
	name, _ = c["name"].(string)
	region, _ = c["region"].(string)
	if arn, _ := c["eks_cluster_arn"].(string); arn != "" && id == "" {
		id = arn
		if a, err := awsclient.ParseClusterARN(arn); err == nil && region == "" {
			region = a.Region
		}
	}
	return id, name, region
}

// fleetClusters names each cluster a plan's resources target with their `cluster` attribute,
// by lower-cased AKS ID or EKS ARN: the `name` one of them gives, else the ID's last segment
// (the cluster's name).
type fleetClusters map[string]string

func (fc fleetClusters) add(id, name string) {
	if id == "" {
		return
	}
	if name != "" || fc[id] == "" {
		if name == "" {
			name = id[strings.LastIndex(id, "/")+1:]
		}
		fc[id] = name
	}
}

// key is the review's cluster key of a resource of provider configuration base that targets
// the cluster id: the cluster's name, after the configuration's key unless it is the default
// one ("aks-weu", "karpenter.east:aks-weu"); base itself without a cluster.
func (fc fleetClusters) key(base, id string) string {
	if id == "" || fc[id] == "" {
		return base
	}
	if base == DefaultProvider {
		return fc[id]
	}
	return base + ":" + fc[id]
}
