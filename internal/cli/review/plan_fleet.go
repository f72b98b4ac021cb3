package review

import "strings"

// planCluster reads a resource's `cluster` attribute (the fleet target of karpenter_nodepool
// and the node-class resources): the AKS cluster ID when known, the region and name it sets.
func planCluster(attrs map[string]any) (id, name, region string) {
	c, _ := attrs["cluster"].(map[string]any)
	id, _ = c["aks_cluster_id"].(string)
	name, _ = c["name"].(string)
	region, _ = c["region"].(string)
	return strings.ToLower(id), name, region
}

// fleetClusters names each cluster a plan's resources target with their `cluster` attribute,
// by lower-cased ID: the `name` one of them gives, else the ID's last segment (the AKS
// cluster's name).
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
	if base == defaultProvider {
		return fc[id]
	}
	return base + ":" + fc[id]
}
