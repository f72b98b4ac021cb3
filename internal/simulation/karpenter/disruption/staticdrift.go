package disruption

import (
	"math"
	"sort"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// staticDrift replaces drifted NodeClaims of static pools (staticdrift.go StaticDrift).
type staticDrift struct{}

// shouldDisrupt is StaticDrift.ShouldDisrupt: static and Drifted.
func (d *staticDrift) shouldDisrupt(_ *snapshot, c *Candidate) (bool, *BlockedError) {
	return c.OwnedByStaticNodePool() && c.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeDrifted), nil
}

// computeCommands is StaticDrift.ComputeCommands: per pool at or below its replicas, as many
// drifted nodes as its budget and its node limit allow, each replaced by a NodeClaim of the
// pool's template. Upstream walks the pools in map order; here they go by name (the pools'
// commands do not depend on one another).
func (d *staticDrift) computeCommands(s *snapshot, budgets map[string]int, cands []*Candidate) ([]Command, map[string]*BlockedError, error) {
	why := map[string]*BlockedError{}
	byPool := map[string][]*Candidate{}
	var names []string
	for _, c := range cands {
		if _, ok := byPool[c.NodePool.Name]; !ok {
			names = append(names, c.NodePool.Name)
		}
		byPool[c.NodePool.Name] = append(byPool[c.NodePool.Name], c)
	}
	sort.Strings(names)
	var cmds []Command
	for _, pool := range names {
		pc := byPool[pool]
		np := pc[0].NodePool
		if budgets[pool] == 0 {
			for _, c := range pc {
				why[c.Name] = blocked(BlockedBudget, "NodePool %q allows no %s disruption now", pool, d.reason())
			}
			continue
		}
		nodeLimit := int64(math.MaxInt64)
		if l, ok := np.Spec.Limits[resources.Node]; ok {
			nodeLimit = l.Value()
		}
		running, pending := 0, 0
		for _, n := range s.cluster.Nodes {
			if n.NodePool() != pool {
				continue
			}
			if n.MarkedForDeletion {
				pending++
			} else {
				running++
			}
		}
		if int64(running+pending) > *np.Spec.Replicas {
			continue
		}
		allowed := min(int64(budgets[pool]), int64(len(pc)), nodeLimit-int64(running+pending))
		if allowed > 0 && allowed < int64(len(pc)) {
			// Upstream replaces the first of the pool's candidates in map order (ties.go).
			s.shuffleCandidates(pc)
		}
		for _, c := range pc[:max(allowed, 0)] {
			nct := &karpenter.NodeClaim{NodePool: pool, Requirements: scheduling.NewNodeSelectorRequirementsWithMinValues(np.Spec.Template.Spec.Requirements...),
				InstanceTypeOptions: s.cluster.Input.InstanceTypes[pool]}
			cmds = append(cmds, Command{Candidates: []*Candidate{c}, Replacements: []*Replacement{{NodeClaim: nct}}, At: s.clock.Now()})
		}
	}
	return cmds, why, nil
}

func (d *staticDrift) reason() karpv1.DisruptionReason { return karpv1.DisruptionReasonDrifted }
func (d *staticDrift) class() string                   { return EventualDisruptionClass }
func (d *staticDrift) name() string                    { return MethodStaticDrift }
