package analysis

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

func weightTestPool(name string, reqs ...karpv1.NodeSelectorRequirementWithMinValues) *Pool {
	np := &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: name}}
	np.Spec.Template.Spec.Requirements = reqs
	return NewPool(np)
}

func nsr(key string, op corev1.NodeSelectorOperator, values ...string) karpv1.NodeSelectorRequirementWithMinValues {
	return karpv1.NodeSelectorRequirementWithMinValues{Key: key, Operator: op, Values: values}
}

func weightPools(ps []*Pool) []*weightPool {
	out := make([]*weightPool, len(ps))
	for i, p := range ps {
		out[i] = newWeightPool(p)
	}
	return out
}

// The work is bounded: identical pools are compared once, pools that a label keeps apart are
// not compared, and a pool that meets every other is compared with each once. Pools differ by
// their own karpenter.sh/nodepool label, which must not keep them apart.
func TestEqualWeightWork(t *testing.T) {
	const tier = "example.com/tier"
	var identical []*Pool
	for i := range 500 {
		identical = append(identical, weightTestPool(fmt.Sprintf("p%03d", i), nsr(tier, corev1.NodeSelectorOpIn, "web")))
	}
	if groups, compared := competingGroups(weightPools(identical)); compared != 0 || len(groups) != 1 || len(groups[0]) != 500 {
		t.Errorf("identical pools: %d groups, %d comparisons, want one group and 0", len(groups), compared)
	}
	var apart []*Pool
	for i := range 2000 {
		apart = append(apart, weightTestPool(fmt.Sprintf("t%04d", i), nsr(tier, corev1.NodeSelectorOpIn, fmt.Sprint(i)), nsr(corev1.LabelArchStable, corev1.NodeSelectorOpIn, "amd64")))
	}
	if groups, compared := competingGroups(weightPools(apart)); compared != 0 || len(groups) != 0 {
		t.Errorf("pools apart: %d groups, %d comparisons, want none", len(groups), compared)
	}
	wild := append(apart, weightTestPool("wild"))
	groups, compared := competingGroups(weightPools(wild))
	if len(groups) != 1 || len(groups[0]) != 2001 || compared > 2*2001 {
		t.Errorf("one pool meeting all: %d groups, %d comparisons", len(groups), compared)
	}
}

// Pools that no In value keeps apart are compared pairwise, up to a bound; beyond it the
// check says, in a note (the registry's documented alternative), that it compared only in part.
func TestEqualWeightComparisonBound(t *testing.T) {
	defer func(n int) { maxComparisons = n }(maxComparisons)
	maxComparisons = 100
	var pools []*Pool
	for i := range 50 {
		// Numeric ranges apart: no pair competes, and none can be indexed away.
		pools = append(pools, weightTestPool(fmt.Sprintf("n%02d", i), nsr("example.com/size", corev1.NodeSelectorOpGt, fmt.Sprint(10*i)), nsr("example.com/size", corev1.NodeSelectorOpLt, fmt.Sprint(10*i+5))))
	}
	got := EqualWeightFindings(pools)
	if len(got) != 1 || got[0].Severity().String() != "note" || !strings.Contains(got[0].Message, "compared only in part (100 pairs") || got[0].Object != "NodePool/n00" {
		t.Errorf("findings %+v, want one note about the bound", got)
	}
}

// A requirement Karpenter's parser takes as prevalidated (Gt without a value panics in it) is
// an error of PoolFromObject, not a panic or a pool with a made-up bound.
func TestPoolFromObjectRejectsUnparseableRequirements(t *testing.T) {
	for _, r := range []map[string]any{
		{"key": "example.com/size", "operator": "Gt", "values": []any{}},
		{"key": "example.com/size", "operator": "Lt", "values": []any{"many"}},
		{"key": "example.com/size", "operator": "Near", "values": []any{"1"}},
	} {
		obj := map[string]any{"metadata": map[string]any{"name": "p"}, "spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"requirements": []any{r}, "nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"}}}}}
		if _, err := PoolFromObject(obj); err == nil || !strings.Contains(err.Error(), "requirements[0]") {
			t.Errorf("%v: err = %v", r, err)
		}
	}
}
