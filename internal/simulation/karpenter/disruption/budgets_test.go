package disruption_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

func underutilized(t *testing.T, np *karpv1.NodePool, p *corev1.Pod) *disruption.Cluster {
	cl := cluster(np)
	cl.Nodes = []*disruption.Node{node(t, np, "big", "Standard_D16s_v5", p)}
	return cl
}

func blockedFor(t *testing.T, res *disruption.RunResult, name, reason string) {
	t.Helper()
	if len(res.Events) != 0 {
		t.Fatalf("want no disruption:\n%s", describe(res))
	}
	if why := res.Blocked[name]; why == nil || why.Reason != reason {
		t.Fatalf("node %s: blocked %v, want %q:\n%s", name, why, reason, describe(res))
	}
}

// A budget of 0 for Underutilized blocks the consolidation, and says so.
func TestBudgetZeroForUnderutilizedBlocks(t *testing.T) {
	np := pool(0)
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "0", Reasons: []karpv1.DisruptionReason{karpv1.DisruptionReasonUnderutilized}}}
	res := run(t, underutilized(t, np, pod("small", "500m", "1Gi")), disruption.Options{})
	blockedFor(t, res, "big", disruption.BlockedBudget)
	if !res.Steady {
		t.Errorf("not steady")
	}
}

// A budget of 0 active for the first ten hours of each day (cron at midnight) opens at
// 10:00 on the simulated clock: the consolidation starts then, after its validation.
func TestBudgetScheduleOpensAWindowOnTheSimulatedClock(t *testing.T) {
	np := pool(0)
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "0", Schedule: new("0 0 * * *"), Duration: &metav1.Duration{Duration: 10 * time.Hour}}}
	res := run(t, underutilized(t, np, pod("small", "500m", "1Gi")), disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) != 1 {
		t.Fatalf("%d disruptions, want 1", len(res.Events))
	}
	if want := t0.Add(10*time.Hour + 15*time.Second); !res.Events[0].At.Equal(want) {
		t.Errorf("started at +%s, want +10h0m15s", res.Events[0].At.Sub(t0))
	}
}

// A do-not-disrupt pod keeps its node.
func TestDoNotDisruptPodBlocks(t *testing.T) {
	p := pod("small", "500m", "1Gi")
	p.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
	blockedFor(t, run(t, underutilized(t, pool(0), p), disruption.Options{}), "big", disruption.BlockedDoNotDisruptPod)
}

// A do-not-disrupt node is kept.
func TestDoNotDisruptNodeBlocks(t *testing.T) {
	cl := underutilized(t, pool(0), pod("small", "500m", "1Gi"))
	cl.Nodes[0].Annotations[karpv1.DoNotDisruptAnnotationKey] = "true"
	blockedFor(t, run(t, cl, disruption.Options{}), "big", disruption.BlockedDoNotDisruptNode)
}

// A PDB that allows no disruption (minAvailable 1 of 1 pod) keeps the node.
func TestPDBWithNoAllowedDisruptionBlocks(t *testing.T) {
	cl := underutilized(t, pool(0), pod("small", "500m", "1Gi"))
	one := intstr.FromInt32(1)
	cl.PDBs = []*policyv1.PodDisruptionBudget{{ObjectMeta: metav1.ObjectMeta{Name: "small", Namespace: "default"},
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "small"}}}}}
	blockedFor(t, run(t, cl, disruption.Options{}), "big", disruption.BlockedPDB)
}

// The node Karpenter itself launches for a pod has no cheaper replacement: nothing happens.
func TestNoReplacementWhenNotCheaper(t *testing.T) {
	np := pool(0)
	cl := cluster(np)
	cl.Pending = []*corev1.Pod{pod("a", "1500m", "4Gi")}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) != 0 || len(cl.Nodes) != 1 {
		t.Fatalf("want the provisioned node kept:\n%s", describe(res))
	}
	if why := res.Blocked[cl.Nodes[0].Name]; why == nil || why.Reason != disruption.BlockedNotCheaper {
		t.Errorf("blocked %v, want %q", why, disruption.BlockedNotCheaper)
	}
}
