package disruption_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// Two NodeClaims due at once expire a second apart (the expiration controller's sleep), and
// each evicted pod comes back as a new pod: the UID the API server gave it, created at its
// eviction.
func TestExpiriesFallASecondApartAndRecreateTheirPods(t *testing.T) {
	np := pool(0)
	np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("1h")
	cl := cluster(np)
	a, b := pod("a", "1", "1Gi"), pod("b", "1", "1Gi")
	cl.Nodes = []*disruption.Node{node(t, np, "one", "Standard_D2s_v5", a), node(t, np, "two", "Standard_D2s_v5", b)}
	cl.ReplacementUID = func(evicted *corev1.Pod) types.UID { return types.UID("new-" + evicted.Name) }
	expired, after := cl.Expire(t0)
	if len(expired) != 2 || !expired[0].At.Equal(t0) || !expired[1].At.Equal(t0.Add(time.Second)) || !after.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("want expiries at +0s and +1s and the clock at +2s, got %d, clock %s", len(expired), after.Sub(t0))
	}
	if len(cl.Pending) != 2 {
		t.Fatalf("want 2 pods pending, got %d", len(cl.Pending))
	}
	for i, p := range cl.Pending {
		if want := types.UID("new-" + p.Name); p.UID != want || !p.CreationTimestamp.Time.Equal(t0.Add(time.Duration(i)*time.Second)) {
			t.Errorf("pod %s: UID %s created %s, want %s created at its eviction", p.Name, p.UID, p.CreationTimestamp.Sub(t0), want)
		}
	}
	if a.UID != "a" || b.UID != "b" {
		t.Errorf("the evicted pods were changed in place")
	}
}
