package provisioningsimulation

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
)

var clusterStateAttribute = schema.ListAttribute{
	Optional: true, ElementType: types.StringType,
	MarkdownDescription: "A running cluster's state, as `kubectl get nodes,nodeclaims,pods,pdb,nodepools,aksnodeclasses -A -o yaml` prints it " +
		"(YAML or JSON, a `v1` List or several documents; e.g. `[file(\"cluster-state.yaml\")]`). The simulation starts from it: " +
		"Karpenter tries its nodes before any NodeClaim, and its pending pods join the queue after the workloads'. " +
		"A node's allocatable comes from its status, or the catalog's for its instance type; its price is the catalog's list price for its " +
		"instance type, zone and capacity type, and a node the catalog does not know is said in an assumption. " +
		"Of a pod only its labels, annotations, owners, requests, host ports and scheduling constraints are read. " +
		"A malformed object is an error on the element, at its line. The optimum (`mode = \"optimal\"`) still packs onto new nodes only.",
}

var podsOnRunningNodesAttribute = schema.Int64Attribute{Computed: true,
	MarkdownDescription: "Pods Karpenter's first provisioning round binds to the running nodes of `cluster_state_yaml` (null without it, and in `optimal` mode). " +
		"They are not counted in `scheduled_pods`, which counts the pods on new nodes."}

// clusterState reads the cluster_state_yaml elements into one snapshot; each problem is an
// error on its element, at its line.
func clusterState(texts []string, diags *diag.Diagnostics) *clusterstate.Snapshot {
	if len(texts) == 0 {
		return nil
	}
	snap := &clusterstate.Snapshot{}
	for i, text := range texts {
		at := path.Root("cluster_state_yaml").AtListIndex(i)
		seen := len(snap.Problems)
		if err := snap.Read(fmt.Sprintf("cluster_state_yaml[%d]", i), strings.NewReader(text)); err != nil {
			diags.AddAttributeError(at, "Unreadable cluster state", fmt.Sprintf("Attribute %s: %v", at, err))
			continue
		}
		for _, p := range snap.Problems[seen:] {
			diags.AddAttributeError(at, "Unreadable cluster state", fmt.Sprintf("Attribute %s, line %d: %s %s", at, p.Line, p.Message, p.Fix))
		}
	}
	return snap
}
