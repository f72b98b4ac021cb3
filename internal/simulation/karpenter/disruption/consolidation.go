package disruption

import (
	"errors"
	"fmt"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// commandValidationDelay is how long a consolidation command waits before its validation.
const commandValidationDelay = 15 * time.Second

// MinInstanceTypesForSpotToSpotConsolidation is upstream's constant of that name.
const MinInstanceTypesForSpotToSpotConsolidation = 15

// consolidation is what single-node, multi-node consolidation and emptiness share.
type consolidation struct {
	evaluator evaluator
}

// shouldDisrupt is consolidation.ShouldDisrupt: not a static pool, the price known, the
// consolidation enabled, not empty (emptiness takes those), not WhenEmpty, Consolidatable.
func (c *consolidation) shouldDisrupt(_ *snapshot, cn *Candidate) (bool, *BlockedError) {
	if cn.OwnedByStaticNodePool() {
		return false, nil
	}
	if cn.instanceType == nil {
		return false, blocked(BlockedNoNodePool, "Instance Type %q not found", cn.Labels[corev1.LabelInstanceTypeStable])
	}
	if _, ok := cn.Labels[karpv1.CapacityTypeLabelKey]; !ok {
		return false, blocked(BlockedNotManaged, "Node does not have label %q", karpv1.CapacityTypeLabelKey)
	}
	if _, ok := cn.Labels[corev1.LabelTopologyZone]; !ok {
		return false, blocked(BlockedNotManaged, "Node does not have label %q", corev1.LabelTopologyZone)
	}
	if cn.NodePool.Spec.Disruption.ConsolidateAfter.Duration == nil {
		return false, blocked(BlockedPolicy, "NodePool %q has consolidation disabled", cn.NodePool.Name)
	}
	if cn.IsEmpty() {
		return false, nil
	}
	if cn.NodePool.Spec.Disruption.ConsolidationPolicy == karpv1.ConsolidationPolicyWhenEmpty {
		return false, blocked(BlockedPolicy, "NodePool %q has consolidation policy WhenEmpty, but node is not empty", cn.NodePool.Name)
	}
	if !cn.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeConsolidatable) {
		return false, blocked(BlockedConsolidateAfter, "consolidateAfter has not passed since the node's last pod event")
	}
	return true, nil
}

// sortCandidates is sortCandidates: by savings ratio, highest first. Upstream's sort.Slice is
// not stable on a list in map order: equal ratios keep the nodes' order here, and
// sortCandidatesTied leaves their order to the tie-breaks.
func sortCandidates(cands []*Candidate) []*Candidate {
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].SavingsRatio() > cands[j].SavingsRatio() })
	return cands
}

// sortCandidatesTied is sortCandidates with the order of equal ratios a tie (ties.go).
func sortCandidatesTied(s *snapshot, cands []*Candidate) []*Candidate {
	cands = sortCandidates(cands)
	s.shuffleEqualRuns(cands, sameSavingsRatio)
	return cands
}

// computeConsolidation is computeConsolidation: the scheduling simulation without the
// candidates; a delete when their pods fit on the other nodes, a replace when they need one
// new NodeClaim whose cheaper options (replacement cheaper than the candidates, the
// spot-to-spot rules) the cloud can launch; else why not.
func (c *consolidation) computeConsolidation(s *snapshot, cands ...*Candidate) (Command, *BlockedError, error) {
	res, moving, err := simulateScheduling(s, true, cands...)
	if err != nil {
		if errors.Is(err, errCandidateDeleting) {
			return Command{}, nil, nil
		}
		return Command{}, nil, err
	}
	if !allNonPendingPodsScheduled(res, moving) {
		return Command{}, blocked(BlockedPodsDoNotFit, "not all pods would schedule"), nil
	}
	if len(res.NodeClaims) == 0 {
		return Command{Candidates: cands, Results: res}, nil, nil
	}
	if len(res.NodeClaims) != 1 {
		return Command{}, blocked(BlockedMultipleNodes, "Can't remove without creating %d candidates", len(res.NodeClaims)), nil
	}
	price := sumCandidatePrices(cands)
	allSpot := true
	for _, cn := range cands {
		if cn.capacityType != karpv1.CapacityTypeSpot {
			allSpot = false
		}
	}
	nc := copyNodeClaim(res.NodeClaims[0])
	if allSpot && nc.Requirements.Get(karpv1.CapacityTypeLabelKey).Has(karpv1.CapacityTypeSpot) {
		return c.computeSpotToSpotConsolidation(s, cands, res, nc, price)
	}
	if why := removeByPriceAndMinValues(nc, price); why != nil {
		return Command{}, why, nil
	}
	ct := nc.Requirements.Get(karpv1.CapacityTypeLabelKey)
	if ct.Has(karpv1.CapacityTypeSpot) && ct.Has(karpv1.CapacityTypeOnDemand) {
		nc.Requirements.Add(scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot))
	}
	return Command{Candidates: cands, Replacements: []*Replacement{{NodeClaim: nc}}, Results: res}, nil, nil
}

// computeSpotToSpotConsolidation is computeSpotToSpotConsolidation: behind its feature gate,
// spot options only, cheaper than the candidates, and for one candidate at least 15 of them,
// of which the 15 cheapest (or as many as minValues needs) are sent.
func (c *consolidation) computeSpotToSpotConsolidation(s *snapshot, cands []*Candidate, res *karpenter.Result, nc *karpenter.NodeClaim, price float64) (Command, *BlockedError, error) {
	if !s.opts.SpotToSpotConsolidation {
		return Command{}, blocked(BlockedSpotToSpot, "SpotToSpotConsolidation is disabled, can't replace a spot node with a spot node"), nil
	}
	nc.Requirements.Add(scheduling.NewRequirement(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeSpot))
	nc.InstanceTypeOptions = nc.InstanceTypeOptions.Compatible(nc.Requirements)
	if why := removeByPriceAndMinValues(nc, price); why != nil {
		return Command{}, why, nil
	}
	cmd := Command{Candidates: cands, Replacements: []*Replacement{{NodeClaim: nc}}, Results: res}
	if len(cands) > 1 {
		return cmd, nil, nil
	}
	if len(nc.InstanceTypeOptions) < MinInstanceTypesForSpotToSpotConsolidation {
		return Command{}, blocked(BlockedSpotToSpot, "SpotToSpotConsolidation requires %d cheaper instance type options than the current candidate to consolidate, got %d",
			MinInstanceTypesForSpotToSpotConsolidation, len(nc.InstanceTypeOptions)), nil
	}
	n := MinInstanceTypesForSpotToSpotConsolidation
	if nc.Requirements.HasMinValues() {
		m, _, _ := nc.InstanceTypeOptions.SatisfiesMinValues(nc.Requirements)
		n = max(n, m)
	}
	nc.InstanceTypeOptions = nc.InstanceTypeOptions[:min(n, len(nc.InstanceTypeOptions))]
	return cmd, nil, nil
}

// removeByPriceAndMinValues is NodeClaim.RemoveInstanceTypeOptionsByPriceAndMinValues: the
// options whose worst launch price is below maxPrice, which must still meet minValues.
func removeByPriceAndMinValues(nc *karpenter.NodeClaim, maxPrice float64) *BlockedError {
	var kept cloudprovider.InstanceTypes
	for _, it := range nc.InstanceTypeOptions {
		if it.Offerings.Available().WorstLaunchPrice(nc.Requirements) < maxPrice {
			kept = append(kept, it)
		}
	}
	nc.InstanceTypeOptions = kept
	if _, _, err := kept.SatisfiesMinValues(nc.Requirements); err != nil {
		return blocked(BlockedNotCheaper, "Filtering by price: %v", err)
	}
	if len(kept) == 0 {
		return blocked(BlockedNotCheaper, "Can't replace with a cheaper node")
	}
	return nil
}

// copyNodeClaim copies the NodeClaim and its requirements, so that the scheduling result
// stays as it was.
func copyNodeClaim(nc *karpenter.NodeClaim) *karpenter.NodeClaim {
	out := *nc
	out.Requirements = scheduling.NewRequirements(nc.Requirements.Values()...)
	out.InstanceTypeOptions = append(cloudprovider.InstanceTypes(nil), nc.InstanceTypeOptions...)
	out.Launch = nil
	return &out
}

// launchReplacement is the provisioner's Create for a replacement (NodeClaim.ToNodeClaim
// narrows the instance-type requirement to the options) and the cloud's launch choice on it
// (cloud.Launcher). It reports false when nothing can launch.
func launchReplacement(launchers map[string]cloud.Launcher, r *Replacement) bool {
	l := launchers[r.NodePool]
	if l == nil || len(r.InstanceTypeOptions) == 0 {
		return false
	}
	names := make([]string, len(r.InstanceTypeOptions))
	for i, it := range r.InstanceTypeOptions {
		names[i] = it.Name
	}
	r.Requirements.Add(scheduling.NewRequirementWithFlexibility(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, r.Requirements.Get(corev1.LabelInstanceTypeStable).MinValues, names...))
	best, tied := l.Launch(r.InstanceTypeOptions, r.Requirements, r.Requests, nil)
	if best == nil || len(tied) == 0 {
		return false
	}
	r.Launch = &karpenter.Launch{InstanceType: best, Offering: tied[0]}
	for _, o := range tied {
		r.Launch.Zones = append(r.Launch.Zones, cloud.ZoneOf(o))
	}
	return true
}

// errNoLaunch is a replacement the cloud could not launch.
var errNoLaunch = fmt.Errorf("no offering of the replacement's options can launch")
