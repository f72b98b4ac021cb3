package nodepool

import (
	"context"
	"reflect"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// clusterImpact warns (KRP422) when an update of a pool drifts its running nodes, and says at
// what pace the budgets let Karpenter replace them. It runs only when the provider is already
// connected to the cluster (crdresource.ImpactClient). The pool's NodeClaims are listed
// read-only and judged by simulation.ChangeDrift against the prior and the planned pool.
func clusterImpact(ctx context.Context, pc *crdresource.PlanContext, s *analysis.Analyzer, known map[string]any, suppress []findings.Code) {
	client := pc.ImpactClient()
	if client == nil {
		return
	}
	name, _, _ := unstructured.NestedString(known, "metadata", "name")
	objs, ok := pc.ListForImpact(ctx, client, crdresource.NodeClaimsGVR, karpv1.NodePoolLabelKey+"="+name)
	if !ok {
		return
	}
	snap := crdresource.NodeClaims(objs, nil)
	if len(snap.NodeClaims) == 0 {
		return
	}
	prior := withKind(pc.Prior)
	in := func(pool map[string]any) simulation.Input {
		return simulation.Input{Region: pc.Data.Region, NodePools: []map[string]any{pool}}
	}
	pools, already, err := simulation.ChangeDrift(ctx, s, snap, in(prior), in(known), time.Now().UTC())
	if err != nil || len(pools) == 0 {
		return
	}
	pc.ReportChangeDrift(pools, already, len(snap.NodeClaims), driftPath(prior, known), crdresource.FindingDetail{Suppress: suppress, Silence: poolSilence})
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

// driftPath is the Kubernetes field of the change that drifts the nodes: the first field of
// the NodePool hash that differs, else the requirements (RequirementsDrifted) when they
// changed, else the template.
func driftPath(prior, planned map[string]any) string {
	for _, f := range hashedFields {
		a, _, _ := unstructured.NestedFieldNoCopy(prior, f...)
		b, _, _ := unstructured.NestedFieldNoCopy(planned, f...)
		if !reflect.DeepEqual(a, b) {
			return strings.Join(f, ".")
		}
	}
	a, _, _ := unstructured.NestedFieldNoCopy(prior, "spec", "template", "spec", "requirements")
	b, _, _ := unstructured.NestedFieldNoCopy(planned, "spec", "template", "spec", "requirements")
	if !reflect.DeepEqual(a, b) {
		return "spec.template.spec.requirements"
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
