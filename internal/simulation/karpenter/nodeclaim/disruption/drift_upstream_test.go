package disruption

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	fakecp "sigs.k8s.io/karpenter/pkg/cloudprovider/fake"
	upstream "sigs.k8s.io/karpenter/pkg/controllers/nodeclaim/disruption"
	"sigs.k8s.io/karpenter/pkg/test/v1alpha1"
)

// driftCase is one NodePool and NodeClaim of the seeded corpus.
type driftCase struct {
	pool      *karpv1.NodePool
	claim     *karpv1.NodeClaim
	its       []*cloudprovider.InstanceType
	cloud     cloudprovider.DriftReason
	oldEnough bool
}

var (
	driftNow = time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	// The vocabulary: each key with the values a NodeClaim's label may take.
	driftKeys = map[string][]string{
		"karpenter.azure.com/sku-family": {"D", "E", "F"},
		karpv1.CapacityTypeLabelKey:      {"spot", "on-demand", "reserved"},
		corev1.LabelTopologyZone:         {"test-zone-1", "test-zone-2", "test-zone-3"},
		corev1.LabelInstanceTypeStable:   {"small", "large", "retired"},
		"team":                           {"a", "b"},
		"karpenter.azure.com/sku-cpu":    {"2", "8", "32"},
	}
	driftOps = []corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn, corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist, corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt}
)

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func randomDriftCase(r *rand.Rand, i int) driftCase {
	keys := []string{"karpenter.azure.com/sku-family", karpv1.CapacityTypeLabelKey, corev1.LabelTopologyZone, corev1.LabelInstanceTypeStable, "team", "karpenter.azure.com/sku-cpu"}
	pool := &karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pool-%d", i)}}
	pool.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: v1alpha1.Group, Kind: "TestNodeClass", Name: "default"}
	for range r.IntN(4) {
		k := pick(r, keys)
		op := pick(r, driftOps)
		req := karpv1.NodeSelectorRequirementWithMinValues{Key: k, Operator: op}
		switch op {
		case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn:
			req.Values = []string{pick(r, driftKeys[k])}
			if r.IntN(2) == 0 {
				req.Values = append(req.Values, pick(r, driftKeys[k]))
			}
		case corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt:
			req.Key, req.Values = "karpenter.azure.com/sku-cpu", []string{pick(r, []string{"1", "4", "16"})}
		}
		pool.Spec.Template.Spec.Requirements = append(pool.Spec.Template.Spec.Requirements, req)
	}
	if r.IntN(3) == 0 {
		pool.Spec.Template.Labels = map[string]string{"team": pick(r, driftKeys["team"])}
	}
	pool = WithHash(pool)

	labels := map[string]string{karpv1.NodePoolLabelKey: pool.Name}
	for _, k := range keys {
		if r.IntN(5) > 0 {
			labels[k] = pick(r, driftKeys[k])
		}
	}
	claim := &karpv1.NodeClaim{ObjectMeta: metav1.ObjectMeta{
		Name: fmt.Sprintf("claim-%d", i), UID: types.UID(fmt.Sprintf("uid-%d", i)), Labels: labels, Annotations: map[string]string{},
	}}
	claim.Spec.NodeClassRef = pool.Spec.Template.Spec.NodeClassRef
	switch r.IntN(5) {
	case 0: // created from another template
		claim.Annotations[karpv1.NodePoolHashAnnotationKey] = "12345"
		claim.Annotations[karpv1.NodePoolHashVersionAnnotationKey] = karpv1.NodePoolHashVersion
	case 1: // created under another hash version
		claim.Annotations[karpv1.NodePoolHashAnnotationKey] = "12345"
		claim.Annotations[karpv1.NodePoolHashVersionAnnotationKey] = "v2"
	case 2: // no hash
	default:
		claim.Annotations[karpv1.NodePoolHashAnnotationKey] = pool.Annotations[karpv1.NodePoolHashAnnotationKey]
		claim.Annotations[karpv1.NodePoolHashVersionAnnotationKey] = karpv1.NodePoolHashVersion
	}
	old := r.IntN(2) == 0
	claim.CreationTimestamp = metav1.NewTime(driftNow.Add(-10 * time.Minute))
	if old {
		claim.CreationTimestamp = metav1.NewTime(driftNow.Add(-2 * time.Hour))
	}
	if r.IntN(5) > 0 {
		claim.StatusConditions().SetTrue(karpv1.ConditionTypeLaunched)
	}
	its := []*cloudprovider.InstanceType{fakecp.NewInstanceType("small"), fakecp.NewInstanceType("large")}
	return driftCase{pool: pool, claim: claim, its: its, cloud: pick(r, []cloudprovider.DriftReason{"", "", "CloudProviderDrifted"}), oldEnough: old}
}

// upstreamDrift runs Karpenter's own NodeClaim disruption controller on the case and returns
// the reason of the Drifted condition it leaves, "" for none.
func upstreamDrift(t *testing.T, c driftCase) cloudprovider.DriftReason {
	t.Helper()
	kube := fake.NewClientBuilder().WithScheme(scheme.Scheme).WithStatusSubresource(&karpv1.NodeClaim{}).
		WithObjects(c.pool.DeepCopy(), c.claim.DeepCopy()).Build()
	cp := fakecp.NewCloudProvider()
	cp.InstanceTypes = c.its
	cp.Drifted = c.cloud
	ctrl := upstream.NewController(clocktesting.NewFakeClock(driftNow), kube, cp)
	stored := &karpv1.NodeClaim{}
	ctx := context.Background()
	if err := kube.Get(ctx, types.NamespacedName{Name: c.claim.Name}, stored); err != nil {
		t.Fatal(err)
	}
	_, _ = ctrl.Reconcile(ctx, stored) // the consolidation sub-controller's errors do not concern drift
	got := &karpv1.NodeClaim{}
	if err := kube.Get(ctx, types.NamespacedName{Name: c.claim.Name}, got); err != nil {
		t.Fatal(err)
	}
	if cond := got.StatusConditions().Get(karpv1.ConditionTypeDrifted); cond != nil && cond.IsTrue() {
		return cloudprovider.DriftReason(cond.Reason)
	}
	return ""
}

// Drifted gives the reason Karpenter's own controller gives, on a seeded corpus of NodePools
// and NodeClaims (requirements, labels, hashes, launch state, age, instance types, the
// cloud provider's verdict).
func TestDriftedMatchesKarpenter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	reasons := map[cloudprovider.DriftReason]int{}
	for i := range 400 {
		c := randomDriftCase(r, i)
		var its []*cloudprovider.InstanceType
		if c.oldEnough {
			its = c.its
		}
		got := Drifted(c.pool, c.claim, its, func() cloudprovider.DriftReason { return c.cloud })
		want := upstreamDrift(t, c)
		reasons[want]++
		if got != want {
			t.Errorf("case %d: Drifted says %q, Karpenter %q\npool requirements %+v\nclaim labels %v annotations %v", i, got, want, c.pool.Spec.Template.Spec.Requirements, c.claim.Labels, c.claim.Annotations)
		}
	}
	// The corpus must reach every verdict, or agreement proves little.
	for _, r := range []cloudprovider.DriftReason{"", NodePoolDrifted, RequirementsDrifted, InstanceTypeNotFound, "CloudProviderDrifted"} {
		if reasons[r] < 10 {
			t.Errorf("the corpus reaches %q only %d times: %v", r, reasons[r], reasons)
		}
	}
	t.Logf("verdicts: %v", reasons)
}
