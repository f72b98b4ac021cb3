package simulation

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	clocktesting "k8s.io/utils/clock/testing"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
)

// budgetHorizon is how far ahead the pace of drift is read from the budgets: the longest
// period a cron schedule of days of the month repeats over.
const budgetHorizon = 31 * 24 * time.Hour

// PoolDrift is what a change's drift means for one NodePool's running nodes.
type PoolDrift struct {
	NodePool string
	// Nodes are the pool's NodeClaims; Drifted those the change drifts.
	Nodes, Drifted int
	// AtOnce is the most drifted nodes the pool's budgets let Karpenter replace at a time
	// within budgetHorizon from the start (MustGetAllowedDisruptions for Drifted, hour by hour);
	// NowAtOnce is the same at the start. 0 means never.
	AtOnce, NowAtOnce int
	// Rounds is how many replacement rounds of AtOnce nodes the drift takes (0 when it never
	// proceeds): Karpenter's Drift method disrupts one NodeClaim per command, while budgets
	// let several commands run at once.
	Rounds int
	// Blocked are the drifted nodes whose drain cannot start, and why.
	Blocked []BlockedNode
}

// BlockedNode is a drifted node Karpenter will not replace, with the reason.
type BlockedNode struct {
	NodeClaim, Node, Why string
	// ForGood is set when nothing ends the block: no terminationGracePeriod on the NodeClaim.
	ForGood bool
}

// AllAtOnce reports a change that drifts more than half of the pool's nodes while the budgets
// let every drifted node go at once.
func (pd PoolDrift) AllAtOnce() bool { return pd.Drifted*2 > pd.Nodes && pd.NowAtOnce >= pd.Drifted }

// Impact summarises the drift per NodePool: how many nodes drift, at what pace the budgets
// replace them from start on, and which cannot go.
func (res *DriftResult) Impact(snap *clusterstate.Snapshot, start time.Time) []PoolDrift {
	nodes := map[string]int{}
	for _, c := range snap.NodeClaims {
		nodes[c.Labels[karpv1.NodePoolLabelKey]]++
	}
	podsOn := map[string][]*corev1.Pod{}
	for _, p := range snap.Pods {
		if p.Spec.NodeName != "" {
			podsOn[p.Spec.NodeName] = append(podsOn[p.Spec.NodeName], p)
		}
	}
	claims := map[string]*karpv1.NodeClaim{}
	for _, c := range snap.NodeClaims {
		claims[c.Name] = c
	}
	nodeByName := map[string]*corev1.Node{}
	for _, n := range snap.Nodes {
		nodeByName[n.Name] = n
	}
	byPool := map[string]*PoolDrift{}
	var order []string
	for _, d := range res.Drifted {
		pd, ok := byPool[d.NodePool]
		if !ok {
			pd = &PoolDrift{NodePool: d.NodePool, Nodes: nodes[d.NodePool]}
			byPool[d.NodePool] = pd
			order = append(order, d.NodePool)
		}
		pd.Drifted++
		claim := claims[d.NodeClaim]
		if why := nodeBlocksDisruption(nodeByName[d.Node]); why != "" {
			pd.Blocked = append(pd.Blocked, BlockedNode{NodeClaim: d.NodeClaim, Node: d.Node, Why: why, ForGood: true})
		} else if why := podsBlockEviction(podsOn[d.Node], snap.PDBs, start); why != "" {
			pd.Blocked = append(pd.Blocked, BlockedNode{NodeClaim: d.NodeClaim, Node: d.Node, Why: why, ForGood: claim == nil || claim.Spec.TerminationGracePeriod == nil})
		}
	}
	out := make([]PoolDrift, 0, len(order))
	slices.Sort(order)
	for _, name := range order {
		pd := byPool[name]
		if np := res.pools[name]; np != nil {
			pd.NowAtOnce, pd.AtOnce = allowedDrift(np, pd.Nodes, start)
		}
		if pd.AtOnce > 0 {
			pd.Rounds = (pd.Drifted + pd.AtOnce - 1) / pd.AtOnce
		}
		out = append(out, *pd)
	}
	return out
}

// allowedDrift is what the pool's budgets allow for Drifted at start and at most over the
// horizon, read hour by hour with Karpenter's own MustGetAllowedDisruptions.
func allowedDrift(np *karpv1.NodePool, nodes int, start time.Time) (now, most int) {
	clk := clocktesting.NewFakeClock(start)
	now = np.MustGetAllowedDisruptions(clk, nodes, karpv1.DisruptionReasonDrifted)
	most = now
	for t := start.Add(time.Hour); t.Before(start.Add(budgetHorizon)) && most < nodes; t = t.Add(time.Hour) {
		clk.SetTime(t)
		most = max(most, np.MustGetAllowedDisruptions(clk, nodes, karpv1.DisruptionReasonDrifted))
	}
	return now, most
}

// nodeBlocksDisruption is the node-level block of ValidateNodeDisruptable: the
// karpenter.sh/do-not-disrupt annotation on the Node.
func nodeBlocksDisruption(n *corev1.Node) string {
	if n != nil && n.Annotations[karpv1.DoNotDisruptAnnotationKey] == "true" {
		return fmt.Sprintf("the node carries %s: \"true\"", karpv1.DoNotDisruptAnnotationKey)
	}
	return ""
}

// podsBlockEviction is ValidatePodsDisruptable (sigs.k8s.io/karpenter pkg/controllers/state):
// the first pod of the node with an active do-not-disrupt annotation, or whose eviction a
// PodDisruptionBudget refuses (none allowed, or two budgets selecting it).
func podsBlockEviction(pods []*corev1.Pod, pdbs []*policyv1.PodDisruptionBudget, at time.Time) string {
	clk := clocktesting.NewFakeClock(at)
	for _, p := range pods {
		if !podutils.IsDisruptable(p, clk, nil) {
			return fmt.Sprintf("pod %s/%s has an active %s annotation", p.Namespace, p.Name, karpv1.DoNotDisruptAnnotationKey)
		}
	}
	for _, p := range pods {
		if !podutils.IsEvictable(p, clk, nil) {
			continue
		}
		var matching []*policyv1.PodDisruptionBudget
		for _, b := range pdbs {
			if b.Namespace != p.Namespace {
				continue
			}
			sel, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
			if err == nil && sel.Matches(labels.Set(p.Labels)) {
				matching = append(matching, b)
			}
		}
		if len(matching) > 1 {
			return fmt.Sprintf("pod %s/%s is selected by %d PodDisruptionBudgets, and the eviction API refuses such pods", p.Namespace, p.Name, len(matching))
		}
		for _, b := range matching {
			if b.Spec.UnhealthyPodEvictionPolicy != nil && *b.Spec.UnhealthyPodEvictionPolicy == policyv1.AlwaysAllow && notReady(p) {
				continue
			}
			if b.Status.DisruptionsAllowed == 0 {
				return fmt.Sprintf("PodDisruptionBudget %s/%s allows no eviction of pod %s", b.Namespace, b.Name, p.Name)
			}
		}
	}
	return ""
}

func notReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionFalse {
			return true
		}
	}
	return false
}
