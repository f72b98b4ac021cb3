package disruption_test

import (
	"testing"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter/disruption"
)

// A 16-cpu node running one small pod is replaced by a cheaper node, after the validation
// delay, and the pod moves to it.
func TestUnderutilizedNodeIsReplacedByACheaperOne(t *testing.T) {
	np := pool(0)
	cl := cluster(np)
	big := node(t, np, "big", "Standard_D16s_v5", pod("small", "500m", "1Gi"))
	cl.Nodes = []*disruption.Node{big}
	res := run(t, cl, disruption.Options{})
	t.Log(describe(res))
	if len(res.Events) != 1 {
		t.Fatalf("%d disruptions, want 1", len(res.Events))
	}
	ev := res.Events[0]
	if ev.Reason != karpv1.DisruptionReasonUnderutilized || ev.Method != disruption.MethodSingle || len(ev.Replacements) != 1 {
		t.Fatalf("got %s/%s with %d replacements, want Underutilized/single with 1", ev.Reason, ev.Method, len(ev.Replacements))
	}
	if got, was := price(ev.Replacements[0]), price(big); got >= was {
		t.Errorf("replacement costs %v, not less than the node's %v", got, was)
	}
	if want := t0.Add(15 * time.Second); !ev.At.Equal(want) {
		t.Errorf("started at +%s, want +15s (the validation delay)", ev.At.Sub(t0))
	}
	if ev.Evicted != 1 || !res.Steady || len(cl.Nodes) != 1 || len(cl.Nodes[0].Pods) != 1 {
		t.Errorf("evicted %d, steady %v, %d nodes left; want 1 pod moved to the one replacement", ev.Evicted, res.Steady, len(cl.Nodes))
	}
}
