package disruption

import (
	"context"
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	clocktesting "k8s.io/utils/clock/testing"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/disruption"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// snapshot is one pass's view of the cluster: the clock, the pools and their instance types
// by name (BuildNodePoolMap), and the PDBs' limits.
type snapshot struct {
	ctx           context.Context
	clock         *clocktesting.FakeClock
	cluster       *Cluster
	opts          Options
	pools         map[string]*karpv1.NodePool
	instanceTypes map[string]map[string]*cloudprovider.InstanceType
	pdbs          limits
}

func newSnapshot(c *Cluster, opts Options, now time.Time) *snapshot {
	s := &snapshot{ctx: context.Background(), clock: clocktesting.NewFakeClock(now), cluster: c, opts: opts,
		pools: map[string]*karpv1.NodePool{}, instanceTypes: map[string]map[string]*cloudprovider.InstanceType{}}
	for _, np := range c.Input.NodePools {
		s.pools[np.Name] = np
		its := c.Input.InstanceTypes[np.Name]
		if len(its) == 0 {
			continue
		}
		m := make(map[string]*cloudprovider.InstanceType, len(its))
		for _, it := range its {
			m[it.Name] = it
		}
		s.instanceTypes[np.Name] = m
	}
	s.pdbs = newLimits(c)
	return s
}

// validatePodsDisruptable is StateNode.ValidatePodsDisruptable: a do-not-disrupt pod, or a
// PDB that allows no eviction of one of the pods, blocks the node.
func (s *snapshot) validatePodsDisruptable(n *Node) error {
	pods := append(append([]*corev1.Pod(nil), n.Pods...), n.DaemonSetPods...)
	for _, p := range pods {
		if !podutils.IsDisruptable(p, s.clock, nil) {
			return blocked(BlockedDoNotDisruptPod, "pod %s/%s has %q annotation", p.Namespace, p.Name, karpv1.DoNotDisruptAnnotationKey)
		}
	}
	if keys, ok := s.pdbs.canEvictPods(pods, s.clock); !ok {
		if len(keys) > 1 {
			return blocked(BlockedPDB, "eviction does not support multiple PDBs (%v)", keys)
		}
		return blocked(BlockedPDB, "pdb %v prevents pod evictions", keys)
	}
	return nil
}

// errCandidateDeleting is upstream's.
var errCandidateDeleting = errors.New("candidate is deleting")

// simulateScheduling is SimulateScheduling: the scheduler emulation run on the nodes that are
// neither candidates nor deleting, for the pending pods, the candidates' currently
// reschedulable pods and the deleting nodes' pods. A pod of a candidate bound to a node not
// yet initialized counts as not scheduled. moving are the pods that must schedule
// (AllNonPendingPodsScheduled), by UID. A consolidation simulation (IsConsolidationSimulation)
// places no candidate pod on a node still under its pool's consolidateAfter.
func simulateScheduling(s *snapshot, consolidation bool, candidates ...*Candidate) (*karpenter.Result, map[types.UID]bool, error) {
	names := map[string]bool{}
	for _, c := range candidates {
		if c.MarkedForDeletion {
			return nil, nil, errCandidateDeleting
		}
		names[c.Name] = true
	}
	in := s.cluster.Input
	in.ExistingNodes = nil
	pods := append([]*corev1.Pod(nil), s.cluster.Pending...)
	moving := map[types.UID]bool{}
	deletingPods := map[types.UID]bool{}
	uninitialized := map[string]bool{}
	candidatePods := map[types.UID]bool{}
	for _, c := range candidates {
		for _, p := range c.reschedulablePods {
			if s.pdbs.isCurrentlyReschedulable(p, s.clock) {
				pods = append(pods, p)
				moving[p.UID] = true
				candidatePods[p.UID] = true
			}
		}
	}
	for _, n := range s.cluster.Nodes {
		switch {
		case names[n.Name]:
		case n.MarkedForDeletion:
			for _, p := range n.Pods {
				if s.pdbs.isCurrentlyReschedulable(p, s.clock) {
					pods = append(pods, p)
					moving[p.UID] = true
					deletingPods[p.UID] = true
				}
			}
		default:
			ex := n.ExistingNode
			ex.UnderConsolidateAfter = consolidation && disruption.IsUnderConsolidateAfter(s.pools[n.NodePool()], n.NodeClaim, s.clock)
			in.ExistingNodes = append(in.ExistingNodes, ex)
			if !n.Initialized() {
				uninitialized[n.Name] = true
			}
		}
	}
	in.Pods = pods
	in.Memo = s.cluster.schedulingMemo()
	if consolidation {
		in.Moving = candidatePods
	}
	res, err := karpenter.Solve(in)
	if err != nil {
		return nil, nil, err
	}
	s.cluster.Ties += res.Ties
	for name, bound := range res.ExistingNodePods {
		if !uninitialized[name] {
			continue
		}
		for _, p := range bound {
			if !deletingPods[p.UID] {
				res.PodErrors[p] = errors.New("would schedule against uninitialized node/" + name)
			}
		}
	}
	return res, moving, nil
}

// allNonPendingPodsScheduled is Results.AllNonPendingPodsScheduled: no pod that is to move
// failed.
func allNonPendingPodsScheduled(res *karpenter.Result, moving map[types.UID]bool) bool {
	for p := range res.PodErrors {
		if moving[p.UID] {
			return false
		}
	}
	return true
}

// getCandidates is GetCandidatesWithTotals: every node that passes newCandidate, then the
// method's filter. rejected holds why each other node was left out.
func getCandidates(s *snapshot, m method) (cands []*Candidate, totals map[string]NodePoolTotals, rejected map[string]*BlockedError) {
	rejected = map[string]*BlockedError{}
	var all []*Candidate
	for _, n := range s.cluster.Nodes {
		c, err := newCandidate(s, n, m.class())
		if err != nil {
			var b *BlockedError
			if errors.As(err, &b) {
				rejected[n.Name] = b
			}
			continue
		}
		all = append(all, c)
	}
	totals = computeNodePoolTotals(all, s.cluster.Nodes, s)
	for _, c := range all {
		if ok, why := m.shouldDisrupt(s, c); ok {
			cands = append(cands, c)
		} else if why != nil {
			rejected[c.Name] = why
		}
	}
	return cands, totals, rejected
}

// buildDisruptionBudgetMapping is BuildDisruptionBudgetMapping: per pool, the disruptions its
// budgets allow for the reason at the simulated time (NodePool.MustGetAllowedDisruptions, on
// the initialized nodes Karpenter manages), less the nodes already being disrupted.
func buildDisruptionBudgetMapping(s *snapshot, reason karpv1.DisruptionReason) map[string]int {
	numNodes, disrupting := map[string]int{}, map[string]int{}
	for _, n := range s.cluster.Nodes {
		if n.NodeClaim == nil || !n.Initialized() {
			continue
		}
		pool := n.Labels[karpv1.NodePoolLabelKey]
		numNodes[pool]++
		if n.MarkedForDeletion {
			disrupting[pool]++
		}
	}
	out := map[string]int{}
	for _, np := range s.cluster.Input.NodePools {
		out[np.Name] = max(np.MustGetAllowedDisruptions(s.clock, numNodes[np.Name], reason)-disrupting[np.Name], 0)
	}
	return out
}

// mapCandidates keeps the current candidates named in proposed.
func mapCandidates(proposed, current []*Candidate) []*Candidate {
	names := map[string]bool{}
	for _, c := range proposed {
		names[c.Name] = true
	}
	var out []*Candidate
	for _, c := range current {
		if names[c.Name] {
			out = append(out, c)
		}
	}
	return out
}
