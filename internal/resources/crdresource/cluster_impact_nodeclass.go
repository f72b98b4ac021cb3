package crdresource

import (
	"context"
	"reflect"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// NodeClassImpact warns (KRP422) when an update of a node class of kind k drifts running
// nodes: the NodeClaims whose nodeClassRef names it are listed read-only with the NodePools
// they belong to and the class as the cluster holds it (with the hash its controller
// stamped), and judged by simulation.ChangeDrift against the prior and the planned class.
func (pc *PlanContext) NodeClassImpact(ctx context.Context, k *kinds.Kind, known map[string]any) {
	client := pc.ImpactClient()
	if client == nil {
		return
	}
	s, err := pc.Data.Analyzer()
	if err != nil {
		return
	}
	name, _, _ := unstructured.NestedString(known, "metadata", "name")
	gk := k.GVK.GroupKind()
	claimObjs, ok := pc.ListForImpact(ctx, client, NodeClaimsGVR, "")
	if !ok {
		return
	}
	snap := NodeClaims(claimObjs, func(c *karpv1.NodeClaim) bool {
		ref := c.Spec.NodeClassRef
		return ref != nil && ref.Name == name && ref.Kind == gk.Kind && ref.Group == gk.Group
	})
	if len(snap.NodeClaims) == 0 {
		return
	}
	poolObjs, ok := pc.ListForImpact(ctx, client, kinds.NodePool.GVR(), "")
	if !ok {
		return
	}
	pools := poolsOf(snap, poolObjs)
	if live, err := client.GetShared(ctx, k.GVR(), name); err == nil && live != nil {
		snap.NodeClasses = []clusterstate.Object{{Body: live.Object}}
	}
	prior := withGVK(pc.Prior, k.GVK)
	in := func(class map[string]any) simulation.Input {
		return simulation.Input{Region: pc.Data.Region, NodePools: pools, NodeClasses: []map[string]any{class}}
	}
	drift, already, err := simulation.ChangeDrift(ctx, s, snap, in(prior), in(known), time.Now().UTC())
	if err != nil || len(drift) == 0 {
		return
	}
	pc.ReportChangeDrift(drift, already, len(snap.NodeClaims), specPath(prior, known), FindingDetail{})
}

// poolsOf are the listed NodePools the NodeClaims belong to, as the bodies the simulation reads.
func poolsOf(snap *clusterstate.Snapshot, objs []map[string]any) []map[string]any {
	used := map[string]bool{}
	for _, c := range snap.NodeClaims {
		used[c.Labels[karpv1.NodePoolLabelKey]] = true
	}
	var out []map[string]any
	for _, o := range objs {
		name, _, _ := unstructured.NestedString(o, "metadata", "name")
		if !used[name] {
			continue
		}
		md := map[string]any{"name": name}
		for _, key := range []string{"labels", "annotations"} {
			if v, ok, _ := unstructured.NestedFieldNoCopy(o, "metadata", key); ok {
				md[key] = v
			}
		}
		out = append(out, map[string]any{"apiVersion": o["apiVersion"], "kind": o["kind"], "metadata": md, "spec": o["spec"]})
	}
	return out
}

// specPath is the first field of spec, in name order, that the change sets differently.
func specPath(prior, planned map[string]any) string {
	a, _, _ := unstructured.NestedMap(prior, "spec")
	b, _, _ := unstructured.NestedMap(planned, "spec")
	keys := map[string]bool{}
	for k := range a {
		keys[k] = true
	}
	for k := range b {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		if !reflect.DeepEqual(a[k], b[k]) {
			return "spec." + k
		}
	}
	return "spec"
}

// withGVK is the state's object with the apiVersion and kind of its resource.
func withGVK(obj map[string]any, gvk schema.GroupVersionKind) map[string]any {
	out := make(map[string]any, len(obj)+2)
	for k, v := range obj {
		out[k] = v
	}
	out["apiVersion"], out["kind"] = gvk.GroupVersion().String(), gvk.Kind
	return out
}
