package nodepool

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// listTimeout bounds the plan-time listing of a pool's NodeClaims: a slow cluster delays the
// plan by at most this much, and the plan goes on without the warning.
const listTimeout = 20 * time.Second

// clusterImpact warns (KRP422) when an update of a pool drifts its running nodes, and says at
// what pace the budgets let Karpenter replace them. It runs only when the provider is already
// connected to the cluster (it refreshed the pool in this plan), so offline plans are
// unchanged. The NodeClaims are listed read-only; the drift is simulation.Drift's, counted
// for the nodes the change newly drifts.
func clusterImpact(ctx context.Context, pc *crdresource.PlanContext, s *analysis.Analyzer, known map[string]any, suppress []findings.Code) {
	if pc.Data == nil || pc.Data.Checks.NoClusterImpact || pc.Creating || !pc.Changing || pc.Prior == nil {
		return
	}
	client := pc.Data.Clients.Connected()
	if client == nil {
		return
	}
	name, _, _ := unstructured.NestedString(known, "metadata", "name")
	ctx, cancel := context.WithTimeout(ctx, listTimeout)
	defer cancel()
	items, err := client.List(ctx, kinds.NodeClaim.GVR(), karpv1.NodePoolLabelKey+"="+name)
	if err != nil {
		pc.Diags.AddWarning("Cannot tell which running nodes this change drifts",
			fmt.Sprintf("Listing the NodeClaims of NodePool %s failed, so the plan does not say whether the change drifts running nodes (KRP422): %v. "+
				"The provider needs get and list on nodeclaims.karpenter.sh; set checks.cluster_impact = false in the provider block to skip this.", name, err))
		return
	}
	snap := &clusterstate.Snapshot{}
	for i := range items {
		var c karpv1.NodeClaim
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(items[i].Object, &c); err == nil {
			snap.NodeClaims = append(snap.NodeClaims, &c)
		}
	}
	if len(snap.NodeClaims) == 0 {
		return
	}
	prior := withKind(pc.Prior)
	in := func(pool map[string]any) simulation.Input {
		return simulation.Input{Region: pc.Data.Region, NodePools: []map[string]any{pool}}
	}
	before, err := simulation.Drift(ctx, s, snap, in(prior))
	if err != nil {
		return
	}
	after, err := simulation.Drift(ctx, s, snap, in(known))
	if err != nil {
		return
	}
	already := map[string]bool{}
	for _, d := range before.Drifted {
		already[d.NodeClaim] = true
	}
	newly := after.Drifted[:0:0]
	reasons := map[string]bool{}
	for _, d := range after.Drifted {
		if !already[d.NodeClaim] {
			newly = append(newly, d)
			reasons[string(d.Reason)] = true
		}
	}
	if len(newly) == 0 {
		return
	}
	after.Drifted = newly
	impact := after.Impact(snap, time.Now().UTC())
	if len(impact) != 1 {
		return
	}
	f := findings.New(findings.ChangeDriftsNodes, driftPath(prior, known, reasons), paceMessage(impact[0], len(already)),
		"Apply it in a maintenance window, or add a budget for Drifted first.").On("NodePool/" + name)
	pc.ReportFinding(f, crdresource.FindingDetail{
		Context: fmt.Sprintf("From the pool's %d NodeClaims listed read-only from the cluster, judged by Karpenter's own Drifted verdict; "+
			"the pace is what the planned budgets allow for Drifted, read hour by hour over the next 31 days. "+
			"Turn this off with checks.cluster_impact = false in the provider block.", len(snap.NodeClaims)),
		Suppress: suppress,
		Silence:  poolSilence,
	})
}

// paceMessage says how many nodes drift and how fast the budgets let them go.
func paceMessage(pd simulation.PoolDrift, already int) string {
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

// hashedFields are the template fields Karpenter's NodePool hash covers, in the order a
// warning names the first that changed.
var hashedFields = [][]string{
	{"spec", "template", "metadata", "labels"},
	{"spec", "template", "metadata", "annotations"},
	{"spec", "template", "spec", "taints"},
	{"spec", "template", "spec", "startupTaints"},
	{"spec", "template", "spec", "nodeClassRef"},
	{"spec", "template", "spec", "expireAfter"},
	{"spec", "template", "spec", "terminationGracePeriod"},
}

// driftPath is the Kubernetes field of the change that drifts the nodes: the requirements for
// RequirementsDrifted, else the first hashed field that differs, else the template.
func driftPath(prior, planned map[string]any, reasons map[string]bool) string {
	if reasons["RequirementsDrifted"] {
		return "spec.template.spec.requirements"
	}
	for _, f := range hashedFields {
		a, _, _ := unstructured.NestedFieldNoCopy(prior, f...)
		b, _, _ := unstructured.NestedFieldNoCopy(planned, f...)
		if !reflect.DeepEqual(a, b) {
			return strings.Join(f, ".")
		}
	}
	return "spec.template"
}

// withKind is the state's object with the apiVersion and kind the plan hook's object has.
func withKind(obj map[string]any) map[string]any {
	out := make(map[string]any, len(obj)+2)
	for k, v := range obj {
		out[k] = v
	}
	out["apiVersion"], out["kind"] = kinds.NodePool.GVK.GroupVersion().String(), kinds.NodePool.GVK.Kind
	return out
}
