package disruption_test

import (
	"fmt"
	"testing"
	"time"

	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// Four nodes made by a pool whose template then changes drift (the NodePool hash); a budget
// of one node replaces them one at a time, each after the previous replacement initialized.
func TestDriftIsReplacedAtTheBudgetsPace(t *testing.T) {
	before := pool(0)
	before.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration("Never")
	var nodes []*disruption.Node
	for i := range 4 {
		nodes = append(nodes, node(t, before, fmt.Sprintf("n%d", i), "Standard_D2s_v5", pod(fmt.Sprintf("p%d", i), "1500m", "4Gi")))
	}
	after := before.DeepCopy()
	after.Spec.Template.Labels = map[string]string{"team": "web"}
	after.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "1"}}
	cl := cluster(after)
	cl.Nodes = nodes
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) != 4 {
		t.Fatalf("%d disruptions, want 4", len(res.Events))
	}
	for i, ev := range res.Events {
		if ev.Reason != karpv1.DisruptionReasonDrifted || len(ev.Replacements) != 1 {
			t.Errorf("disruption %d: %s with %d replacements, want Drifted with 1", i, ev.Reason, len(ev.Replacements))
		}
		if want := t0.Add(time.Duration(i) * disruption.DefaultLaunchToInitialized); !ev.At.Equal(want) {
			t.Errorf("disruption %d at +%s, want +%s (one at a time)", i, ev.At.Sub(t0), want.Sub(t0))
		}
	}
	for _, n := range cl.Nodes {
		if n.Labels["team"] != "web" {
			t.Errorf("node %s left without the new template's label", n.Name)
		}
	}
	if !res.Steady {
		t.Error("not steady")
	}
}

// A NodeClaim past its expireAfter is deleted, outside the budgets, and its pod provisioned a
// new node.
func TestExpireAfterExpires(t *testing.T) {
	np := pool(0)
	np.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration("Never")
	np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "0"}}
	np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("2h")
	cl := cluster(np)
	cl.Nodes = []*disruption.Node{node(t, np, "old", "Standard_D2s_v5", pod("a", "1500m", "4Gi"))}
	res, err := disruption.Run(cl, disruption.NewController(disruption.Options{}), disruption.RunOptions{Start: t0, Horizon: 2 * time.Hour, Provision: provisioner})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(describe(res))
	if len(res.Events) != 1 || res.Events[0].Reason != disruption.ReasonExpired || !res.Events[0].At.Equal(t0.Add(time.Hour)) {
		t.Fatalf("want one expiry at +1h:\n%s", describe(res))
	}
	if len(cl.Nodes) != 1 || cl.Nodes[0].Name == "old" || len(cl.Nodes[0].Pods) != 1 {
		t.Fatalf("want the pod on a new node")
	}
	// The new node expires at +3h, past the horizon: the run is steady at its end.
	if !res.Steady {
		t.Errorf("not steady at the horizon")
	}
}

// With a terminationGracePeriod, drift (the eventual class) takes a node whose pod is
// do-not-disrupt: that pod is not currently reschedulable, so no replacement is launched for
// it; the drain waits for it until the grace period ends, then the node goes and the pod,
// pending, gets a new node. Without one, the pod blocks the drift.
func TestTerminationGracePeriodBoundsADriftBlockedByItsPod(t *testing.T) {
	for _, tgp := range []time.Duration{0, time.Hour} {
		before := pool(0)
		before.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration("Never")
		if tgp > 0 {
			before.Spec.Template.Spec.TerminationGracePeriod = &metav1.Duration{Duration: tgp}
		}
		p := pod("keep", "1500m", "4Gi")
		p.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
		n := node(t, before, "old", "Standard_D2s_v5", p)
		after := before.DeepCopy()
		after.Spec.Template.Labels = map[string]string{"team": "web"}
		cl := cluster(after)
		cl.Nodes = []*disruption.Node{n}
		res := run(t, cl, disruption.Options{})
		t.Logf("terminationGracePeriod %s:\n%s", tgp, describe(res))
		if tgp == 0 {
			blockedFor(t, res, "old", disruption.BlockedDoNotDisruptPod)
			continue
		}
		if len(res.Events) != 1 || res.Events[0].Reason != karpv1.DisruptionReasonDrifted || res.Events[0].Evicted != 1 {
			t.Fatalf("want one drift that evicted the pod when the grace period ended:\n%s", describe(res))
		}
		if want := t0.Add(tgp + disruption.DefaultLaunchToInitialized); !res.End.Equal(want) {
			t.Errorf("ended at +%s, want +%s (the grace period, then the new node's initialization)", res.End.Sub(t0), want.Sub(t0))
		}
		if len(cl.Nodes) != 1 || cl.Nodes[0].Name == "old" || len(cl.Nodes[0].Pods) != 1 {
			t.Errorf("want the pod alone on a new node")
		}
	}
}

// Two drifted nodes each run one of a workload's two pods, under a PDB of minAvailable 1: it
// allows one disruption. Each drift's drain evicts its pod, which the PDB still counts
// healthy while its node is deleting (kube-controller-manager's countHealthyPods reads the
// pod, not its node), and the budget of one node then takes the other node.
func TestDriftDrainsThePodItsPDBAllowsToLeave(t *testing.T) {
	before := pool(0)
	before.Spec.Disruption.ConsolidateAfter = karpv1.MustParseNillableDuration("Never")
	var nodes []*disruption.Node
	for i := range 2 {
		p := pod(fmt.Sprintf("web-%d", i), "1500m", "4Gi")
		p.Labels = map[string]string{"app": "web"}
		nodes = append(nodes, node(t, before, fmt.Sprintf("n%d", i), "Standard_D2s_v5", p))
	}
	after := before.DeepCopy()
	after.Spec.Template.Labels = map[string]string{"team": "web"}
	after.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "1"}}
	cl := cluster(after)
	cl.Nodes = nodes
	one := intstr.FromInt32(1)
	cl.PDBs = []*policyv1.PodDisruptionBudget{{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: &one, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}}
	res, err := disruption.Run(cl, disruption.NewController(disruption.Options{}), disruption.RunOptions{Start: t0, Horizon: time.Hour, Provision: provisioner})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(describe(res))
	if len(res.Events) != 2 {
		t.Fatalf("%d disruptions, want 2 drifts", len(res.Events))
	}
	for i, ev := range res.Events {
		if ev.Reason != karpv1.DisruptionReasonDrifted || ev.Evicted != 1 {
			t.Errorf("disruption %d: %s evicting %d pods, want Drifted evicting 1", i, ev.Reason, ev.Evicted)
		}
	}
	for _, n := range cl.Nodes {
		if n.Labels["team"] != "web" || n.MarkedForDeletion {
			t.Errorf("node %s left (deleting %v) without the new template's label", n.Name, n.MarkedForDeletion)
		}
	}
	if len(cl.Pending) != 0 || !res.Steady {
		t.Errorf("%d pods pending, steady %v: want both pods bound and a steady state", len(cl.Pending), res.Steady)
	}
}
