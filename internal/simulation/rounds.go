package simulation

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// MaxRounds bounds the provisioning rounds a run takes: a round that still places pods after
// it is reported as the bound being hit.
const MaxRounds = 20

// ProvisioningRound is one round of Karpenter's provisioner: its scheduler's decision over
// the pods still pending, on the nodes launched by the rounds before, and the nodes its
// NodeClaims became.
type ProvisioningRound struct {
	Result   *karpenter.Result
	Launched []karpenter.ExistingNode
	// Placed is how many pods the round bound: to its launched NodeClaims and to the nodes
	// that existed before it.
	Placed int
}

// Provisioned is Karpenter's provisioning run to the round that places nothing more: every
// round that placed a pod, the nodes after the last one, and the pods still pending. It is
// not a steady state: no consolidation, drift or expiry is run.
type Provisioned struct {
	Rounds  []ProvisioningRound
	Nodes   []karpenter.ExistingNode
	Pending []*corev1.Pod
	// PendingErrors holds, per pending pod, Karpenter's reason in the last round run.
	PendingErrors map[*corev1.Pod]error
	// HitBound is set when the last round allowed (maxRounds) still placed pods.
	HitBound bool
}

// Provision runs Karpenter's provisioning rounds from in (its ExistingNodes are the cluster
// at the start) until a round places nothing or maxRounds have run. After each round every
// NodeClaim that launched becomes a node with its instance type's allocatable and capacity
// (karpenter.LaunchedNode), so the next round's limits are charged at what launched rather
// than at the largest option, and the next round runs on the pods still pending. A NodeClaim
// whose launch found no offering leaves its pods pending.
func Provision(in karpenter.Input, maxRounds int) (*Provisioned, error) {
	pools := map[string]*karpv1.NodePool{}
	for _, np := range in.NodePools {
		pools[np.Name] = np
	}
	out := &Provisioned{Nodes: append([]karpenter.ExistingNode(nil), in.ExistingNodes...), Pending: in.Pods}
	for r := 1; r <= maxRounds && len(out.Pending) > 0; r++ {
		cur := in
		cur.ExistingNodes, cur.Pods = out.Nodes, out.Pending
		res, err := karpenter.Solve(cur)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r, err)
		}
		round, nodes, pending := AfterRound(r, out.Nodes, out.Pending, pools, res)
		out.PendingErrors = res.PodErrors
		if round.Placed == 0 {
			break
		}
		out.Rounds, out.Nodes, out.Pending = append(out.Rounds, round), nodes, pending
		out.HitBound = r == maxRounds && len(pending) > 0
	}
	return out, nil
}

// AfterRound is the cluster after round r decided res on nodes with pods pending: the pods
// bound to existing nodes added to them, each launched NodeClaim a node named by the round
// and its rank (karpenter.LaunchedNode), and the pods still pending in their order.
func AfterRound(r int, nodes []karpenter.ExistingNode, pending []*corev1.Pod, pools map[string]*karpv1.NodePool, res *karpenter.Result) (ProvisioningRound, []karpenter.ExistingNode, []*corev1.Pod) {
	// The scheduler binds a relaxed copy of a pod whose preferences it relaxed; the cluster
	// holds the pod itself, so the pods are matched back by UID.
	of := make(map[types.UID]*corev1.Pod, len(pending))
	for _, p := range pending {
		of[p.UID] = p
	}
	bound := map[types.UID]bool{}
	originals := func(pods []*corev1.Pod) []*corev1.Pod {
		out := make([]*corev1.Pod, 0, len(pods))
		for _, p := range pods {
			if q, ok := of[p.UID]; ok {
				out = append(out, q)
				bound[p.UID] = true
			}
		}
		return out
	}
	round := ProvisioningRound{Result: res}
	after := make([]karpenter.ExistingNode, len(nodes), len(nodes)+len(res.NodeClaims))
	for i, n := range nodes {
		if add := res.ExistingNodePods[n.Name]; len(add) > 0 {
			n.Pods = append(append([]*corev1.Pod(nil), n.Pods...), originals(add)...)
		}
		after[i] = n
	}
	for i, nc := range res.NodeClaims {
		n := karpenter.LaunchedNode(nc, pools[nc.NodePool], fmt.Sprintf("round%02d-%04d", r, i+1))
		if n == nil {
			continue
		}
		n.Pods = originals(n.Pods)
		round.Launched = append(round.Launched, *n)
		after = append(after, *n)
	}
	round.Placed = len(bound)
	left := make([]*corev1.Pod, 0, len(pending)-len(bound))
	for _, p := range pending {
		if !bound[p.UID] {
			left = append(left, p)
		}
	}
	return round, after, left
}
