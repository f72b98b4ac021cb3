package analysis

import (
	"math"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
)

// CapacityChoice is the cheapest offering of one capacity type the pool allows.
type CapacityChoice struct {
	SKU            string  `json:"sku"`
	Region         string  `json:"region,omitempty"`
	HourlyPrice    float64 `json:"hourly_price"`
	Currency       string  `json:"currency,omitempty"`
	PriceSource    string  `json:"price_source"`
	PriceEstimated bool    `json:"price_estimated"`
	// MonthlyCostAtLimits: see Summary.MonthlyCostAtLimits, with this capacity
	// type's prices only; nil when no limit binds.
	MonthlyCostAtLimits *float64 `json:"monthly_cost_at_limits,omitempty"`
}

// launchChoice returns the candidate and offering Karpenter would launch among cands, ranked
// by the pool's cloud (cloud.Launcher.Rank: on Azure the provider's own allocation stage,
// pkg/providers/allocationstrategy/stages/offering_rank.go in karpenter-provider-azure
// v1.14.2: the lowest price, then spot before on-demand, then zonal before regional, then the
// size name). Ties between zones are shuffled upstream; no field reported here depends on the
// zone.
//
// Price is the ranking's first key, so only the offerings at the lowest price can win: the
// others are left out before ranking (the same choice, without ranking hundreds of sizes). No
// cloud's Rank orders by zone and no field reported here depends on it, so of a type's
// offerings that differ only in zone one is ranked (a westeurope size has three zonal
// offerings per capacity type).
func (a *Analysis) launchChoice(cands []Candidate) (Candidate, *cloudprovider.Offering, bool) {
	return a.launchChoiceOf(candidateSlice(cands), "")
}

// launchChoiceOf is launchChoice over the offerings of capacity type ct only ("" for all): the
// choice among the candidates kept to ct, without building them.
func (a *Analysis) launchChoiceOf(cands candidateList, ct string) (Candidate, *cloudprovider.Offering, bool) {
	lowest := math.Inf(1)
	for i := range cands.Len() {
		if cut, ok := cands.Cut(i, ct); ok {
			lowest = min(lowest, cut.lowest)
			continue
		}
		c := cands.At(i)
		for k, of := range c.Offerings {
			if of.Price < lowest && (ct == "" || c.capacityAt(k) == ct) {
				lowest = of.Price
			}
		}
	}
	var ios []cloud.InstanceOfferings
	owner := map[*cloudprovider.InstanceType]int{}
	for i := range cands.Len() {
		if cut, ok := cands.Cut(i, ct); ok && (cut.n == 0 || cut.lowest != lowest) {
			continue // no offering at the lowest price
		}
		c := cands.At(i)
		var offs cloudprovider.Offerings
		var ranked uint64 // the zone-free classes (classRank) of offs, when below 64
		for k, of := range c.Offerings {
			if of.Price != lowest || (ct != "" && c.capacityAt(k) != ct) {
				continue
			}
			if c.class != nil {
				if r := c.idx.classRank[c.class[k]]; r < 64 {
					if ranked&(1<<uint(r)) != 0 {
						continue // ranks as an offering already in offs: only its zone differs
					}
					ranked |= 1 << uint(r)
				}
			}
			offs = append(offs, of)
		}
		if len(offs) == 0 {
			continue
		}
		owner[c.InstanceType.InstanceType] = i
		ios = append(ios, cloud.InstanceOfferings{InstanceType: c.InstanceType.InstanceType, Offerings: offs})
	}
	if len(ios) == 0 {
		return Candidate{}, nil, false
	}
	best := a.cloud.Rank(ios)[0]
	return cands.At(owner[best.InstanceType]), best.Offerings[0], true
}

// candidateList is a sequence of candidates: a slice, or one built per candidate as it is read
// (reofferedList), so that a pass over hundreds of sizes does not allocate them.
type candidateList interface {
	Len() int
	At(i int) Candidate
	// Cut is At(i).cut(ct), without building or copying the candidate.
	Cut(i int, ct string) (priceCut, bool)
}

type candidateSlice []Candidate

func (s candidateSlice) Len() int                              { return len(s) }
func (s candidateSlice) At(i int) Candidate                    { return s[i] }
func (s candidateSlice) Cut(i int, ct string) (priceCut, bool) { return s[i].cut(ct) }

// priceOf returns the instance type's price record for an offering's capacity type.
func priceOf(it *cloud.InstanceType, of *cloudprovider.Offering) cloud.Price { return it.PriceOf(of) }

// locate is the index holding the candidate's type and the type's position there; nil for a
// type no index of the analysis holds.
func (a *Analysis) locate(c Candidate) (*typeIndex, int) {
	if c.idx != nil {
		return c.idx, c.pos
	}
	for _, idx := range a.indexes {
		if i, ok := idx.position[c.InstanceType]; ok {
			return idx, i
		}
	}
	return nil, 0
}

// capacityAt is the capacity type of the candidate's k-th offering, read from its index class
// when known (Offering.CapacityType allocates at each call).
func (c Candidate) capacityAt(k int) string {
	if c.class != nil {
		return c.idx.classCapacity[c.class[k]]
	}
	return c.Offerings[k].CapacityType()
}

// priceAt is the price record of the candidate's k-th offering (InstanceType.PriceOf).
func (c Candidate) priceAt(k int) cloud.Price {
	if c.capacityAt(k) == karpv1.CapacityTypeSpot {
		return c.InstanceType.Spot
	}
	return c.InstanceType.OnDemand
}

// nodesWithinLimits is how many nodes of capacity the limits admit, counting
// every limited resource the node has (Karpenter's filterByRemainingResources
// compares each; "nodes" counts one per node, as its state does), as a
// fraction; +Inf when no limit applies to the node.
func nodesWithinLimits(capacity, limits corev1.ResourceList) float64 {
	n := math.Inf(1)
	for name, limit := range limits {
		if name == resources.Node {
			n = math.Min(n, limit.AsApproximateFloat64())
			continue
		}
		c, ok := capacity[name]
		if !ok || c.IsZero() {
			continue
		}
		n = math.Min(n, limit.AsApproximateFloat64()/c.AsApproximateFloat64())
	}
	return n
}

// costAtLimits is the cheapest monthly cost of a pool filled up to its limits:
// over the candidates some limit binds and that fit at least one node, the
// least of hourly price × the nodes the binding limit admits × 730 h. Sizes no
// limit binds do not bound the pool's cost, and sizes the limits cannot hold
// one of never run, so neither counts; nil when no candidate is left, which
// means "unbounded or never launched", not "free".
func costAtLimits(cands []Candidate, limits corev1.ResourceList) *float64 {
	return costAtLimitsOf(candidateSlice(cands), limits, "", nil)
}

// costAtLimitsOf is costAtLimits over the offerings of capacity type ct only ("" for all).
// nodes, when given, is nodesWithinLimits of each candidate (parallel to cands).
func costAtLimitsOf(cands candidateList, limits corev1.ResourceList, ct string, nodes []float64) *float64 {
	if len(limits) == 0 {
		return nil
	}
	best := math.Inf(1)
	for i := range cands.Len() {
		var n float64
		if nodes != nil {
			n = nodes[i]
		} else {
			n = nodesWithinLimits(cands.At(i).InstanceType.Capacity, limits)
		}
		if math.IsInf(n, 1) || n < 1 {
			continue
		}
		var price float64
		if cut, ok := cands.Cut(i, ct); ok {
			price = cut.lowestPaid
		} else {
			price = lowestPaid(cands.At(i), ct)
		}
		if math.IsInf(price, 1) {
			continue
		}
		best = math.Min(best, price*n*HoursPerMonth)
	}
	if math.IsInf(best, 1) {
		return nil
	}
	v := round(best)
	return &v
}

// lowestPaid is the lowest price among the candidate's offerings of capacity type ct ("" for
// all) whose price is not a penalty; +Inf when there is none.
func lowestPaid(c Candidate, ct string) float64 {
	price := math.Inf(1)
	for k, of := range c.Offerings {
		if ct != "" && c.capacityAt(k) != ct {
			continue
		}
		// A penalty price is not a cost.
		if !c.priceAt(k).Penalty() {
			price = math.Min(price, of.Price)
		}
	}
	return price
}

// nodesAtLimits is nodesWithinLimits of each admissible candidate, computed once per analysis
// for the costs at the limits of every capacity type; nil when the pool has no limits.
func (a *Analysis) nodesAtLimits(limits corev1.ResourceList) []float64 {
	if len(limits) == 0 {
		return nil
	}
	if a.nodes == nil {
		a.nodes = make([]float64, len(a.Admissible))
		for i, c := range a.Admissible {
			a.nodes[i] = nodesWithinLimits(c.InstanceType.Capacity, limits)
		}
	}
	return a.nodes
}

// summariseCost fills the launch choice, the cheapest offering per capacity
// type and the costs at the limits.
func (a *Analysis) summariseCost(p *Pool) {
	c, of, ok := a.launchChoice(a.Admissible)
	if !ok {
		return
	}
	price := priceOf(c.InstanceType, of)
	a.Summary.CheapestSKU = c.InstanceType.Name
	a.Summary.CheapestRegion = c.Region
	a.Summary.CheapestCapacity = of.CapacityType()
	a.Summary.CheapestHourlyPrice = RoundPrice(of.Price)
	a.Summary.Currency = money.Code(price.Currency)
	a.Summary.PriceEstimated = price.Estimated()
	a.Summary.PriceSource = price.Source
	limits := corev1.ResourceList(p.Spec.Limits)
	nodes := a.nodesAtLimits(limits)
	a.Summary.MonthlyCostAtLimits = costAtLimitsOf(candidateSlice(a.Admissible), limits, "", nodes)
	for _, ct := range []string{karpv1.CapacityTypeSpot, karpv1.CapacityTypeOnDemand} {
		c, of, ok := a.launchChoiceOf(candidateSlice(a.Admissible), ct)
		if !ok {
			continue
		}
		price := priceOf(c.InstanceType, of)
		if a.Summary.CapacityTypes == nil {
			a.Summary.CapacityTypes = map[string]CapacityChoice{}
		}
		a.Summary.CapacityTypes[ct] = CapacityChoice{
			SKU: c.InstanceType.Name, Region: c.Region, HourlyPrice: RoundPrice(of.Price), Currency: money.Code(price.Currency),
			PriceSource: price.Source, PriceEstimated: price.Estimated(),
			MonthlyCostAtLimits: costAtLimitsOf(candidateSlice(a.Admissible), limits, ct, nodes),
		}
	}
}
