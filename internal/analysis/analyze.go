package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bitset"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Options tune an analysis.
type Options struct {
	// Region to analyse; empty analyses every region of the catalog.
	Region string
	// NodeClass is the referenced node class's settings (nil, or another cloud's: the pool's
	// cloud's defaults); NodeClassAssumed says that the node class was not available and
	// defaults stand in (reported as a finding).
	NodeClass        cloud.NodeClass
	NodeClassAssumed bool
	// FewThreshold: fewer admissible sizes than this is a warning (default 5).
	FewThreshold int
	// LargestPod, when set, is a pod's requests that must fit on some admissible node.
	LargestPod corev1.ResourceList
	// Target is the Karpenter the cluster runs (zero: the pinned release, default gates).
	Target Target
	// RegionSetting names where the surface reporting the analysis sets Region, for the fix of
	// an unknown region (KRP114); "" is the provider's region.
	RegionSetting string
}

// Candidate is an instance type the pool can launch in a region, with the offerings
// (zone × capacity type) its requirements allow.
type Candidate struct {
	Region       string
	InstanceType *cloud.InstanceType
	Offerings    cloudprovider.Offerings

	// idx is the type index holding the type, at position pos; class is each offering's class
	// there (parallel to Offerings). nil when not known: the offerings are then asked.
	idx   *typeIndex
	pos   int
	class []int32
	// view is the offering view whose offerings of the type these are (nil when not from one):
	// its price cuts stand for scanning them.
	view *offeringView
}

// cut is the candidate's price cut for capacity type ct ("" for all), from its view; false when
// it has no view or the view keeps no slot for ct.
func (c *Candidate) cut(ct string) (priceCut, bool) {
	if c.view == nil {
		return priceCut{}, false
	}
	slot, ok := slotOf(ct)
	if !ok {
		return priceCut{}, false
	}
	return c.view.cuts[slot][c.pos], true
}

// Cheapest returns the candidate's cheapest allowed offering.
func (c Candidate) Cheapest() *cloudprovider.Offering { return c.Offerings.Cheapest() }

// Analysis is what the solver found for one pool.
type Analysis struct {
	Regions    []string
	Admissible []Candidate // sorted by cheapest price, then name
	Findings   []findings.Finding
	Summary    Summary

	skus  []string    // skuNames(Admissible), computed once
	cloud cloud.Cloud // the cloud serving the pool
	// indexes are the type indexes of the regions analysed, for offering facts; rts are the
	// regions' instance types.
	indexes []*typeIndex
	rts     []*regionTypes
	// nodes is nodesAtLimits, once computed.
	nodes []float64
}

// skuNames returns the distinct size names of the admissible candidates, sorted.
func (a *Analysis) skuNames() []string {
	if a.skus == nil {
		a.skus = skuNames(a.Admissible)
	}
	return a.skus
}

// Summary condenses an analysis for plan output and reviews.
type Summary struct {
	Scope               string  `json:"scope"` // the region, or "all regions"
	AdmissibleSKUs      int     `json:"admissible_skus"`
	CheapestSKU         string  `json:"cheapest_sku,omitempty"`
	CheapestRegion      string  `json:"cheapest_region,omitempty"`
	CheapestCapacity    string  `json:"cheapest_capacity_type,omitempty"`
	CheapestHourlyPrice float64 `json:"cheapest_hourly_price,omitempty"`
	// Currency is the ISO 4217 code of every price and cost here: the pool's cloud's price
	// table for the region (USD, CNY in AWS's China regions, an override's own).
	Currency           string  `json:"currency,omitempty"`
	PriceEstimated     bool    `json:"price_estimated"`
	LargestSKU         string  `json:"largest_sku,omitempty"`
	LargestVCPU        int64   `json:"largest_vcpu,omitempty"`
	LargestMemoryGiB   float64 `json:"largest_memory_gib,omitempty"`
	LimitsAllowOneNode bool    `json:"limits_allow_one_node"`
	// MonthlyCostAtLimits is the cheapest cost of running the pool filled to its limits
	// for a month (730 h): per admissible size, its cheapest price times the nodes that
	// the binding limit (cpu, memory, GPUs, nodes, ...) admits, the least over the sizes.
	// nil when no limit binds any size that fits one node: unbounded, or never launched.
	MonthlyCostAtLimits *float64 `json:"monthly_cost_at_limits,omitempty"`

	// PriceSource is the provenance of CheapestHourlyPrice ("list 2026-08-22",
	// "estimated: …"). The Cheapest* fields are the offering Karpenter launches.
	PriceSource string `json:"price_source,omitempty"`
	// CapacityTypes holds, per capacity type the pool allows ("spot",
	// "on-demand"), its cheapest offering and cost at the limits.
	CapacityTypes map[string]CapacityChoice `json:"capacity_types,omitempty"`
}

// HoursPerMonth is the convention Azure pricing uses.
const HoursPerMonth = 730

// Analyze checks one NodePool.
func (s *Analyzer) Analyze(p *Pool, o Options) *Analysis {
	if o.FewThreshold == 0 {
		o.FewThreshold = 5
	}
	// The pool's cloud follows from its nodeClassRef.group; its node class stands in when none is given.
	c := s.cloudOf(p)
	o.NodeClass = nodeClassFor(c, o.NodeClass)
	a := &Analysis{Summary: Summary{Scope: "any region (no region set; prices from Karpenter's fallback region)"}, cloud: c}
	words := cloud.VocabularyOf(c)
	if o.Region != "" {
		a.Summary.Scope = strings.ToLower(o.Region)
		if !c.HasRegion(o.Region) {
			a.add(findings.Finding{Code: findings.UnknownRegion, Message: fmt.Sprintf("region %q is not in the %s", o.Region, words.Catalog),
				Fix: "set " + cmp.Or(o.RegionSetting, "the provider's region") + " to an " + c.Name() + " region name such as " + quoteAll(suggestOr(o.Region, c.Regions(), c.ExampleRegion()))})
			return a
		}
		a.Regions = []string{strings.ToLower(o.Region)}
	} else {
		a.Regions = []string{AnyRegion}
	}
	if o.NodeClassAssumed {
		a.add(findings.Finding{Code: findings.NodeClassAssumed, Path: "spec.template.spec.nodeClassRef",
			Message: fmt.Sprintf("the settings of %s %q were not available to this check (it is not planned before this pool: managed elsewhere, or referenced by a literal name); its defaults (%s) are assumed", words.NodeClassKind, p.NodeClassName(), words.NodeClassDefaults),
			Fix:     fmt.Sprintf("manage the %s in the same configuration and reference it by attribute (name = %s.x.name), so that it is planned first and its settings are used", words.NodeClassKind, words.NodeClassResource)})
	}
	checkCaveats(c, a)
	for _, region := range a.Regions {
		rt := s.types(region, o.NodeClass)
		a.rts = append(a.rts, rt)
		idx := rt.index()
		a.indexes = append(a.indexes, idx)
		mask, noZone := rt.admissibleMask(p.Requirements)
		v := idx.view(idx.patternOf(p.Requirements, noZone))
		a.Admissible = slices.Grow(a.Admissible, len(v.order))
		for _, i := range v.order {
			if mask.Has(int(i)) {
				a.Admissible = append(a.Admissible, Candidate{Region: region, InstanceType: rt.result.InstanceTypes[i], Offerings: v.offs[i], idx: idx, pos: int(i), class: v.classes[i], view: v})
			}
		}
	}
	if len(a.Regions) > 1 {
		// Each region's candidates are in order already (the view's); across regions they are not.
		sortCandidates(a.Admissible)
	}
	s.checkLabels(p, o, a)
	s.checkAdmissible(p, o, a)
	checkLimits(p, a)
	checkReservation(p, o, a)
	checkShape(p, o, a)
	a.summarise(p)
	checkSpotSavings(p, a)
	checkDisruption(p, o, a)
	sort.SliceStable(a.Findings, func(i, j int) bool { return rank(a.Findings[i].Severity()) < rank(a.Findings[j].Severity()) })
	return a
}

func (a *Analysis) add(f findings.Finding) { a.Findings = append(a.Findings, f) }

func rank(s findings.Severity) int { return -int(s) }

// admissible returns the offerings of an instance type that the requirements accept, as
// Karpenter's scheduler judges them (compatible requirements, then available and compatible
// offerings); none when the type is not admissible. When a size's offerings are regional only
// because its zones are unknown (zonesUnjudged), a zone requirement cannot be judged per size: it
// is checked against the region's zones instead of excluding the size.
func (rt *regionTypes) admissible(it *cloud.InstanceType, reqs scheduling.Requirements) cloudprovider.Offerings {
	if zonesUnjudged(it) && reqs.Has(corev1.LabelTopologyZone) {
		zone := reqs.Get(corev1.LabelTopologyZone)
		if rt.zones != nil && !anyAllowed(zone, rt.zones) {
			return nil
		}
		reqs = withoutKey(reqs, corev1.LabelTopologyZone)
	}
	if it.Requirements.Intersects(reqs) != nil {
		return nil
	}
	var out cloudprovider.Offerings
	for _, of := range it.Offerings.Available() {
		if reqs.IsCompatible(of.Requirements, scheduling.AllowUndefinedWellKnownLabels) {
			out = append(out, of)
		}
	}
	return out
}

// zonesUnjudged reports whether a type's zone requirement cannot be judged on its offerings:
// its zones are not known and none of its offerings is in a zone (regional placement "0" or no
// zone at all: an EKS catalog, an AKS region whose zones the catalog lacks). A size whose zones
// the cloud assumed (AKS: every zone of the region, cloud/aks assumedZones) is judged on its
// offerings like one whose zones are known, so that a zone-pinned pool admits only the offerings
// in its zones: stripping the requirement there would admit the regional and the other zones'
// offerings too, and the optimum would place pods in a zone the pool excludes.
func zonesUnjudged(it *cloud.InstanceType) bool {
	if it.ZonesKnown {
		return false
	}
	for _, of := range it.Offerings {
		if z := cloud.ZoneOf(of); z != "" && z != "0" {
			return false
		}
	}
	return true
}

func anyAllowed(r *scheduling.Requirement, values map[string]bool) bool {
	for v := range values {
		if r.Has(v) {
			return true
		}
	}
	return false
}

func withoutKey(reqs scheduling.Requirements, key string) scheduling.Requirements {
	out := scheduling.NewRequirements()
	for _, r := range reqs.Values() {
		if r.Key != key {
			out.Add(r)
		}
	}
	return out
}

// skuNames returns the distinct size names of candidates, sorted.
func skuNames(cs []Candidate) []string {
	if names, ok := indexedNames(cs); ok {
		return names
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.InstanceType.Name
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// indexedNames is skuNames without sorting, when every candidate is from one index whose
// listing is sorted by name: their names in listing order.
func indexedNames(cs []Candidate) ([]string, bool) {
	if len(cs) == 0 || cs[0].idx == nil || !cs[0].idx.namesSorted {
		return nil, false
	}
	idx := cs[0].idx
	marked := bitset.New(idx.n)
	for _, c := range cs {
		if c.idx != idx {
			return nil, false
		}
		marked.Add(c.pos)
	}
	names := make([]string, 0, len(cs))
	marked.Each(func(i int) { names = append(names, idx.names[i]) })
	return slices.Compact(names), true
}

func (s *Analyzer) checkAdmissible(p *Pool, o Options, a *Analysis) {
	names := a.skuNames()
	switch {
	case len(names) == 0:
		a.add(findings.Finding{Code: findings.NoInstanceType, Path: "spec.template.spec.requirements",
			Message: "no instance type satisfies the requirements in " + a.Summary.Scope + "; Karpenter would log \"no instance type satisfied resources and requirements\" and never launch a node. " + s.blame(p, o, a),
			Fix:     "widen the requirements (more families, sizes, zones or capacity types) or check the node class settings"})
		return
	case len(names) < o.FewThreshold:
		a.add(findings.Finding{Code: findings.FewInstanceTypes, Path: "spec.template.spec.requirements",
			Message: fmt.Sprintf("only %d instance type(s) satisfy the requirements in %s: %s; Karpenter has little room to find capacity or a cheaper size", len(names), a.Summary.Scope, strings.Join(names, ", ")),
			Fix:     "allow more sizes or families so Karpenter can fall back when one is out of capacity"})
	}
	if unmet := unmetMinValues(p, a); len(unmet) > 0 {
		for i, r := range p.Spec.Template.Spec.Requirements {
			if got, ok := unmet[r.Key]; ok && r.MinValues != nil {
				a.add(findings.Finding{Code: findings.MinValuesUnmet, Path: requirementPath(i, "minValues"),
					Message: fmt.Sprintf("minValues %d for %s cannot be met: the admissible instance types have only %d distinct value(s)", *r.MinValues, r.Key, got),
					Fix:     fmt.Sprintf("lower minValues to at most %d, or widen the requirements", got)})
			}
		}
	}
	words := cloud.VocabularyOf(a.cloud)
	if !p.HasTaint() {
		var gpus []string
		for _, c := range a.Admissible {
			if isGPU(c, words.GPUResources) {
				gpus = append(gpus, c.InstanceType.Name)
			}
		}
		if len(gpus) > 0 {
			gpus = dedupe(gpus)
			a.add(findings.Finding{Code: findings.GPUWithoutTaint, Path: "spec.template.spec.taints",
				Message: fmt.Sprintf("%d GPU %s(s) are admissible (e.g. %s) but the pool has no NoSchedule taint, so any pod may land on an expensive GPU node", len(gpus), words.InstanceType, gpus[0]),
				Fix:     "add a taint such as { key = \"nvidia.com/gpu\", value = \"true\", effect = \"NoSchedule\" }, or exclude GPU sizes with " + words.GPUCountKey + " DoesNotExist"})
		}
	}
	zonesKnown := true
	for _, c := range a.Admissible {
		zonesKnown = zonesKnown && c.InstanceType.ZonesKnown
	}
	// The offerings' zones only count when every size's zones are known (reading them is
	// most of an analysis's time otherwise spent for nothing).
	var zones map[string]bool
	if zonesKnown {
		zones = offeringZones(a.Admissible)
	} else {
		// Sizes without zone data: judge by what the requirement itself allows.
		zones = map[string]bool{}
		if z := p.Requirements.Get(corev1.LabelTopologyZone); p.Requirements.Has(corev1.LabelTopologyZone) && z.Operator() == corev1.NodeSelectorOpIn {
			for _, v := range z.Values() {
				zones[v] = true
			}
		}
	}
	if o.Region != "" && len(zones) == 1 {
		for z := range zones {
			if z != "" && z != "0" {
				a.add(findings.Finding{Code: findings.SingleZone, Path: "spec.template.spec.requirements",
					Message: fmt.Sprintf("all admissible capacity is in zone %s; a zonal outage or capacity shortage stops the pool", z),
					Fix:     "allow more zones in topology.kubernetes.io/zone"})
			}
		}
	}
	allPenalty := true
	for _, c := range a.Admissible {
		if !c.InstanceType.PriceOf(c.Cheapest()).Penalty() {
			allPenalty = false
			break
		}
	}
	if allPenalty {
		a.add(findings.Finding{Code: findings.OnlyPenaltyPricedSKU, Path: "spec.template.spec.requirements",
			Message: "every admissible size lacks a price in Karpenter's tables, so it ranks them last and cost estimates are unknown",
			Fix:     "prefer sizes Karpenter knows, or extend the catalog with prices"})
	}
}

// unmetMinValues is what InstanceTypes.SatisfiesMinValues reports unmet over the admissible
// types: nothing when the requirements have no minValues, as upstream returns at once.
func unmetMinValues(p *Pool, a *Analysis) map[string]int {
	if !p.Requirements.HasMinValues() {
		return nil
	}
	its := make(cloudprovider.InstanceTypes, 0, len(a.Admissible))
	for _, c := range a.Admissible {
		its = append(its, c.InstanceType.InstanceType)
	}
	_, unmet, _ := its.SatisfiesMinValues(p.Requirements)
	return unmet
}

// isGPU reports whether the candidate's type has a nonzero quantity of a GPU resource: from
// its index when that was built for the same resources.
func isGPU(c Candidate, gpuResources []string) bool {
	if c.idx != nil && slices.Equal(c.idx.gpuResources, gpuResources) {
		return c.idx.gpu.Has(c.pos)
	}
	return hasGPU(c.InstanceType, gpuResources)
}

// offeringZones is the set of Requirement.Any of every offering's zone requirement. Offerings
// of one index class share the value when it is fixed (classZoneFixed), so each class is read
// once, from the union of the view's class sets when the candidates have one; the others are
// asked per offering.
func offeringZones(cands []Candidate) map[string]bool {
	zones := map[string]bool{}
	var (
		lastIdx   *typeIndex
		classSeen []bool
		union     uint64 // the classes of candidates read from lastIdx's views' class sets
	)
	flush := func() {
		for cl := 0; union != 0; cl++ {
			if union&1 != 0 && !classSeen[cl] {
				classSeen[cl] = true
				zones[lastIdx.classZone[cl]] = true
			}
			union >>= 1
		}
	}
	for _, c := range cands {
		if c.class == nil {
			for _, of := range c.Offerings {
				zones[of.Requirements.Get(corev1.LabelTopologyZone).Any()] = true
			}
			continue
		}
		if c.idx != lastIdx {
			if lastIdx != nil {
				flush()
			}
			lastIdx, classSeen = c.idx, make([]bool, len(c.idx.classes))
		}
		if c.view != nil && !c.view.manyClasses && c.view.classSet[c.pos]&lastIdx.unfixedZones == 0 {
			union |= c.view.classSet[c.pos]
			continue
		}
		for k, of := range c.Offerings {
			if cl := c.class[k]; lastIdx.classZoneFixed[cl] {
				if !classSeen[cl] {
					classSeen[cl] = true
					zones[lastIdx.classZone[cl]] = true
				}
				continue
			}
			zones[of.Requirements.Get(corev1.LabelTopologyZone).Any()] = true
		}
	}
	if lastIdx != nil {
		flush()
	}
	return zones
}

// blame explains an empty result: which requirement alone already excludes everything.
func (s *Analyzer) blame(p *Pool, o Options, a *Analysis) string {
	var total int
	counts := make([]int, len(p.Spec.Template.Spec.Requirements))
	for _, region := range a.Regions {
		rt := s.types(region, o.NodeClass)
		total += len(rt.result.InstanceTypes)
		for i, r := range p.Spec.Template.Spec.Requirements {
			one := scheduling.NewNodeSelectorRequirementsWithMinValues(r)
			for _, it := range rt.result.InstanceTypes {
				if len(rt.admissible(it, one)) > 0 {
					counts[i]++
				}
			}
		}
	}
	var zero []string
	for i, c := range counts {
		if c == 0 {
			r := p.Spec.Template.Spec.Requirements[i]
			zero = append(zero, fmt.Sprintf("requirement %d (%s %s %v)", i, r.Key, r.Operator, r.Values))
		}
	}
	if len(zero) > 0 {
		return "On its own, " + strings.Join(zero, " and ") + " already matches none of the " + fmt.Sprint(total) + " instance types."
	}
	return "Each requirement matches some instance types on its own, but no instance type matches all of them together."
}

func (s *Analyzer) checkLabels(p *Pool, o Options, a *Analysis) {
	c := s.cloudOf(p)
	words := cloud.VocabularyOf(c)
	wellKnown := c.WellKnownLabels()
	for i, r := range p.Spec.Template.Spec.Requirements {
		if !wellKnown.Has(r.Key) {
			other := s.otherCloudOwning(c, r.Key)
			if wellKnownDomain(c, r.Key) || other != nil {
				msg := fmt.Sprintf("%s is not a label Karpenter or %s sets, so nodes get it only as a custom label and pods selecting on a well-known label will not match", r.Key, words.Kubernetes)
				sug := suggest(r.Key, sortedSet(wellKnown))
				if other != nil {
					ow := cloud.VocabularyOf(other)
					msg = fmt.Sprintf("%s is a label of Karpenter on %s, not one Karpenter or %s sets, so nodes get it only as a custom label and it does not select %s", r.Key, ow.Kubernetes, words.Kubernetes, words.InstanceTypes)
					sug = counterpart(r.Key, ow, words)
				}
				if len(sug) > 0 {
					msg += "; did you mean " + quoteAll(sug) + "?"
				}
				a.add(findings.Finding{Code: findings.UnknownLabelKey, Path: requirementPath(i, "key"), Message: msg,
					Fix: "use a well-known label key"})
			}
			continue
		}
		if r.Operator != corev1.NodeSelectorOpIn && r.Operator != corev1.NodeSelectorOpNotIn {
			continue
		}
		vals := a.values(r.Key)
		if len(vals) == 0 || numeric(vals) {
			continue
		}
		// One finding per requirement, however many values it lists: a generated list of
		// 10,000 values is one KRP107, and suggestions are looked for a few values only.
		var elsewhere, unknown []string
		for _, v := range r.Values {
			switch {
			case vals[v]:
			case o.Region != "" && s.valueExistsAnywhere(o.NodeClass, r.Key, v):
				elsewhere = append(elsewhere, v)
			default:
				unknown = append(unknown, v)
			}
		}
		if len(elsewhere) > 0 {
			a.add(findings.Finding{Code: findings.ValueNotInRegion, Path: requirementPath(i, "values"),
				Message: fmt.Sprintf("%s=%s %s in the catalog but not in %s", r.Key, quoteSome(elsewhere), pluralVerb(len(elsewhere), "exists", "exist"), o.Region),
				Fix:     "remove the " + pluralVerb(len(elsewhere), "value", "values") + " or check the region"})
		}
		if len(unknown) == 0 {
			continue
		}
		msg := fmt.Sprintf("no instance type in %s has %s=%s", a.Summary.Scope, r.Key, quoteSome(unknown))
		candidates := sortedKeys(vals)
		var hints []string
		for _, v := range unknown[:min(len(unknown), maxSuggested)] {
			sug := suggest(v, candidates)
			if r.Key == corev1.LabelTopologyZone && len(sug) == 0 {
				// Zones are written "westeurope-1"; "1" is the number Azure shows elsewhere.
				for _, z := range candidates {
					if strings.HasSuffix(z, "-"+v) {
						sug = append(sug, z)
					}
				}
			}
			if len(sug) > 0 {
				if len(unknown) == 1 {
					hints = append(hints, quoteAll(sug))
				} else {
					hints = append(hints, quoteAll(sug)+" for "+strconv.Quote(v))
				}
			}
		}
		if len(hints) > 0 {
			msg += "; did you mean " + strings.Join(hints, ", ") + "?"
		}
		a.add(findings.Finding{Code: findings.UnknownLabelValue, Path: requirementPath(i, "values"), Message: msg,
			Fix: "use " + pluralVerb(len(unknown), "a value", "values") + " Karpenter sets on " + words.Kubernetes + " nodes"})
	}
}

// maxSuggested and maxQuoted bound what one finding about a requirement's values says.
const (
	maxSuggested = 3
	maxQuoted    = 10
	maxValueLen  = 80
)

// quoteSome quotes the first values (a long one cut short) and counts the rest.
func quoteSome(vals []string) string {
	q := make([]string, 0, min(len(vals), maxQuoted))
	for _, v := range vals[:min(len(vals), maxQuoted)] {
		if len(v) > maxValueLen {
			v = strings.ToValidUTF8(v[:maxValueLen], "") + "…"
		}
		q = append(q, strconv.Quote(v))
	}
	out := strings.Join(q, ", ")
	if len(vals) > maxQuoted {
		out += fmt.Sprintf(" and %d more", len(vals)-maxQuoted)
	}
	return out
}

func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// values is every value of the key some instance type of the analysed regions offers.
func (a *Analysis) values(key string) map[string]bool {
	if len(a.rts) == 1 {
		return a.rts[0].values[key] // read only
	}
	out := map[string]bool{}
	for _, rt := range a.rts {
		for v := range rt.values[key] {
			out[v] = true
		}
	}
	return out
}

func (s *Analyzer) valueExistsAnywhere(nc cloud.NodeClass, key, v string) bool {
	return s.types(AnyRegion, nc).values[key][v]
}

// coreLabelDomains are the domains of Karpenter's and Kubernetes' own node labels; a cloud
// adds its provider's (cloud.Labels.LabelDomains).
var coreLabelDomains = []string{"karpenter.sh", "kubernetes.io", "node.kubernetes.io", "topology.kubernetes.io"}

// wellKnownDomain reports whether the key is under a domain whose labels Karpenter, Kubernetes
// or the cloud's provider set: an unknown key there is a typo, not a custom label.
func wellKnownDomain(c cloud.Labels, key string) bool {
	domain, _, ok := strings.Cut(key, "/")
	if !ok {
		return false
	}
	return slices.Contains(coreLabelDomains, domain) || slices.Contains(c.LabelDomains(), domain)
}

func numeric(vals map[string]bool) bool {
	for v := range vals {
		if _, err := resource.ParseQuantity(v); err != nil {
			return false
		}
	}
	return true
}

func checkLimits(p *Pool, a *Analysis) {
	limits := p.Spec.Limits
	if len(limits) == 0 && p.Spec.Replicas != nil {
		// A static pool keeps a fixed number of nodes; limits do not bound it.
		a.Summary.LimitsAllowOneNode = len(a.Admissible) > 0
		return
	}
	if len(limits) == 0 {
		a.Summary.LimitsAllowOneNode = len(a.Admissible) > 0
		a.add(findings.Finding{Code: findings.NoLimits, Path: "spec.limits",
			Message: "the pool has no limits: a runaway deployment or a scheduling loop can launch nodes without bound",
			Fix:     "set limits such as { cpu = \"200\", memory = \"800Gi\" }"})
		return
	}
	if len(a.Admissible) == 0 {
		return
	}
	var smallest *Candidate
	for i := range a.Admissible {
		c := &a.Admissible[i]
		if withinLimits(c.InstanceType.Capacity, corev1.ResourceList(limits)) {
			a.Summary.LimitsAllowOneNode = true
			return
		}
		if smallest == nil || c.InstanceType.Capacity.Cpu().Cmp(*smallest.InstanceType.Capacity.Cpu()) < 0 {
			smallest = c
		}
	}
	capacity := smallest.InstanceType.Capacity
	a.add(findings.Finding{Code: findings.LimitsBelowNode, Path: "spec.limits",
		Message: fmt.Sprintf("the limits (%s) are smaller than every admissible node; the smallest, %s, has %s vCPU and %s memory, so the pool can never launch a node (Karpenter: \"all available instance types exceed limits\")",
			describe(corev1.ResourceList(limits)), smallest.InstanceType.Name, capacity.Cpu().String(), gib(capacity.Memory())),
		Fix: "raise the limits above one node's capacity, or allow smaller sizes"})
}

// withinLimits follows Karpenter's filterByRemainingResources: only limited resources count.
func withinLimits(capacity, limits corev1.ResourceList) bool {
	for name, limit := range limits {
		if c, ok := capacity[name]; ok && c.Cmp(limit) > 0 {
			return false
		}
	}
	return true
}

func checkShape(p *Pool, o Options, a *Analysis) {
	if len(o.LargestPod) == 0 || len(a.Admissible) == 0 {
		return
	}
	for _, c := range a.Admissible {
		if resources.Fits(o.LargestPod, c.InstanceType.Allocatable()) {
			return
		}
	}
	a.add(findings.Finding{Code: findings.PodNeverFits, Path: "spec.template.spec.requirements",
		Message: fmt.Sprintf("a pod requesting %s fits on no admissible node after kube-reserved and eviction thresholds", describe(o.LargestPod)),
		Fix:     "allow larger sizes in this pool or schedule such pods on another pool"})
}

func (a *Analysis) summarise(p *Pool) {
	a.Summary.AdmissibleSKUs = len(a.skuNames())
	if len(a.Admissible) == 0 {
		return
	}
	a.summariseCost(p)
	largest := a.Admissible[0]
	for _, c := range a.Admissible {
		if larger(c, largest) {
			largest = c
		}
	}
	a.Summary.LargestSKU = largest.InstanceType.Name
	a.Summary.LargestVCPU = largest.InstanceType.Capacity.Cpu().Value()
	a.Summary.LargestMemoryGiB = round(float64(largest.InstanceType.Capacity.Memory().Value()) / (1 << 30))
}

// larger reports whether c has more vCPUs than l, or as many and more memory: by the index's
// size rank when both are from one index.
func larger(c, l Candidate) bool {
	if c.idx != nil && c.idx == l.idx {
		return c.idx.sizeRank[c.pos] > c.idx.sizeRank[l.pos]
	}
	return largerCapacity(c.InstanceType.Capacity, l.InstanceType.Capacity)
}

func largerCapacity(c, l corev1.ResourceList) bool {
	cpu, mem, lcpu, lmem := c.Cpu(), c.Memory(), l.Cpu(), l.Memory()
	return cpu.Cmp(*lcpu) > 0 || (cpu.Cmp(*lcpu) == 0 && mem.Cmp(*lmem) > 0)
}

func gib(q *resource.Quantity) string {
	return fmt.Sprintf("%.1fGi", float64(q.Value())/(1<<30))
}

func round(f float64) float64 { return math.Round(f*10000) / 10000 }

func describe(l corev1.ResourceList) string {
	parts := make([]string, 0, len(l))
	for k, v := range l {
		parts = append(parts, fmt.Sprintf("%s=%s", k, v.String()))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func dedupe(s []string) []string {
	m := map[string]bool{}
	for _, v := range s {
		m[v] = true
	}
	return sortedKeys(m)
}

func sortedSet(s sets.Set[string]) []string { return sets.List(s) }

func suggestOr(s string, candidates []string, fallback string) []string {
	if sug := suggest(s, candidates); len(sug) > 0 {
		return sug
	}
	return []string{fallback}
}
