package crdresource

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// listTimeout bounds a plan-time listing: a slow cluster delays the plan by at most this much,
// and the plan goes on without the drift warning.
const listTimeout = 20 * time.Second

// ImpactClient is the cluster's client for the plan-time drift warning (KRP422) of an update:
// nil when the provider is not connected yet (an offline plan, or one without refresh, stays
// offline), when checks.cluster_impact is false, or when the plan creates the object.
func (pc *PlanContext) ImpactClient() *kube.Client {
	if pc.Data == nil || pc.Data.Checks.NoClusterImpact || pc.Creating || !pc.Changing || pc.Prior == nil {
		return nil
	}
	return pc.Data.Clients.Connected()
}

// ListForImpact lists, read-only, the objects of the resource matching the label selector, as
// the drift warning needs them; a failure is a warning saying so (ok false), never an error.
func (pc *PlanContext) ListForImpact(ctx context.Context, client *kube.Client, gvr schema.GroupVersionResource, selector string) ([]map[string]any, bool) {
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	items, err := client.List(ctx, gvr, selector)
	if err != nil {
		pc.Diags.AddWarning("Cannot tell which running nodes this change drifts",
			fmt.Sprintf("Listing %s failed, so the plan does not say whether the change drifts running nodes (KRP422): %v. "+
				"The provider needs get and list on %s; set checks.cluster_impact = false in the provider block to skip this.", gvr.GroupResource(), err, gvr.GroupResource()))
		return nil, false
	}
	out := make([]map[string]any, len(items))
	for i := range items {
		out[i] = items[i].Object
	}
	return out, true
}

// NodeClaims are the listed objects as a snapshot's NodeClaims, those keep accepts (nil: all).
func NodeClaims(objs []map[string]any, keep func(*karpv1.NodeClaim) bool) *clusterstate.Snapshot {
	snap := &clusterstate.Snapshot{}
	for _, o := range objs {
		var c karpv1.NodeClaim
		if runtime.DefaultUnstructuredConverter.FromUnstructured(o, &c) == nil && (keep == nil || keep(&c)) {
			snap.NodeClaims = append(snap.NodeClaims, &c)
		}
	}
	return snap
}

// NodeClaimsGVR is what the drift warning lists.
var NodeClaimsGVR = kinds.NodeClaim.GVR()

// ReportChangeDrift reports KRP422 for each pool the change drifts, on the field path that
// causes it, with the budgets' pace.
func (pc *PlanContext) ReportChangeDrift(pools []simulation.PoolDrift, already, listed int, k8sPath string, d FindingDetail) {
	d.Context = fmt.Sprintf("From the %d NodeClaims listed read-only from the cluster, judged by Karpenter's own Drifted verdict; "+
		"the pace is what the budgets allow for Drifted, read hour by hour over the next 31 days. "+
		"Turn this off with checks.cluster_impact = false in the provider block.", listed)
	for _, pd := range pools {
		f := findings.New(findings.ChangeDriftsNodes, k8sPath, PaceMessage(pd, already),
			"Apply it in a maintenance window, or add a budget for Drifted first.").On("NodePool/" + pd.NodePool)
		pc.ReportFinding(f, d)
	}
}

// PaceMessage says how many nodes of the pool drift and how fast the budgets let them go.
func PaceMessage(pd simulation.PoolDrift, already int) string {
	msg := fmt.Sprintf("this change drifts %d of %d nodes of NodePool %s; ", pd.Drifted, pd.Nodes, pd.NodePool)
	switch {
	case pd.AtOnce == 0:
		msg += "budgets allow no Drifted disruption in the next 31 days: the nodes keep the old configuration (KRP421)"
	case pd.Rounds == 1:
		msg += fmt.Sprintf("budgets allow %d at a time: they can all be replaced at once", pd.AtOnce)
	default:
		msg += fmt.Sprintf("budgets allow %d at a time: about %d replacement rounds", pd.AtOnce, pd.Rounds)
	}
	if pd.AtOnce > 0 && pd.NowAtOnce != pd.AtOnce {
		msg += fmt.Sprintf(" (%d at a time now; %d in the budgets' widest window)", pd.NowAtOnce, pd.AtOnce)
	}
	if pd.AllAtOnce() {
		msg += "; more than half of the pool's nodes may be replaced together (KRP420)"
	}
	if already > 0 {
		msg += fmt.Sprintf("; %d other nodes are drifted already", already)
	}
	return msg
}
