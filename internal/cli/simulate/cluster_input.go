package simulate

import (
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// clusterInput is the cluster as the simulation takes it: the workloads read, the NodePools
// and node classes with values unknown until apply removed. skipped names the pools left out
// for such values.
func clusterInput(c *assemble.Cluster, set *workload.Set, o Options) (in simulation.Input, skipped []string) {
	in = simulation.Input{Region: c.Region, Pods: set.Pods, DaemonSets: set.DaemonSets, SteadyState: true, PDBs: simulation.PodDisruptionBudgets(set), MaxPods: o.MaxPods, MaxNodes: o.MaxNodes}
	for _, p := range c.NodePools {
		known, unknown := crdtree.StripUnknown(p.Body)
		if len(unknown) > 0 {
			skipped = append(skipped, fmt.Sprintf("%s: values known only after apply", p.Label()))
			continue
		}
		in.NodePools = append(in.NodePools, known)
	}
	for _, nc := range c.NodeClasses {
		known, _ := crdtree.StripUnknown(nc.Body)
		in.NodeClasses = append(in.NodeClasses, known)
	}
	return in, skipped
}
