package optimal

import (
	"fmt"
	"k8s.io/apimachinery/pkg/util/sets"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// model is a simulation compiled to integer resource vectors and offering bit masks, so that
// packing never touches Kubernetes quantities or requirement sets. It does not change after
// compile: every packing of its pods is a packing value (see packing).
type model struct {
	s      *analysis.Analyzer
	region string
	// currency is the pools' prices' (simmodel.Currency).
	currency string
	seed     uint64
	// configBound asks the report for the configuration LP bound.
	configBound bool
	// dims are the resources packed: cpu (millicores), memory (bytes), pods, then any other
	// resource a pod or the daemon overhead requests, by name; after those (from nres on),
	// one per workload whose pods one node may hold only so many of (hostname anti-affinity or
	// hostname spread, simmodel.Workload.PerNode): every node offers perNode[d−nres] of it and
	// each of the workload's pods takes 1, so the greedy, the knapsacks and the bounds keep the
	// cap as they keep any resource.
	dims      []corev1.ResourceName
	nres      int
	perNode   []int64
	capped    int // per-node dims handed out to workloads so far (compile)
	daemon    []int64
	pools     []*simPool // Karpenter's order: weight descending, then name descending
	workloads []*simWorkload
	classes   []*podClass
	zones     []string // zone id → topology.kubernetes.io/zone value
	units     []*unit
	// classByShape maps simmodel.SelectorKey to the class index.
	classByShape map[string]int
	// columns memoises boundColumns, a pure function of the model and its arguments.
	columns map[string][]boundColumn
}

type simPool struct {
	idx       int
	name      string
	weight    int32
	pool      *analysis.Pool
	nodeClass cloud.NodeClass // resolved: the serving cloud's
	taints    scheduling.Taints
	types     []*poolType
	limits    []poolLimit
	// byPrice orders types by their cheapest offering (re-typing walks it upwards).
	byPrice []int
	// daemon is the DaemonSet overhead on the pool's nodes, per dim.
	daemon []int64
	// wellKnown are the labels the pool's cloud's Karpenter knows (not every linked provider's).
	wellKnown sets.Set[string]
}

// poolLimit is one entry of spec.limits, in the units of dims (or nodes). What remains of it
// is the packing's (packing.remaining).
type poolLimit struct {
	name  corev1.ResourceName
	limit int64
}

// poolType is an instance type the pool admits, with its offerings as bit positions.
type poolType struct {
	it       *cloud.InstanceType
	ti       int     // index in the region's instance types
	alloc    []int64 // allocatable less daemon overhead, per dim
	usable   bool    // the daemon overhead fits
	capLimit []int64 // capacity counted against each pool limit
	offs     cloudprovider.Offerings
	price    []float64
	zone     []int
	spot     []bool
	all      uint64
	zoneMask []uint64 // per zone id
	minPrice float64
}

// podClass is pods with the same requirements and tolerations: per pool, the offerings of
// each pool type they may use.
type podClass struct {
	masks [][]uint64 // [pool][type]; nil when the pool is not an option
	why   []string   // [pool] why it is not an option
	zones []int      // zones the options span (topology spread domains)
}

type simWorkload struct {
	w     simmodel.Workload
	class int
	d     []int64
	bad   string // set when the workload cannot be scheduled at all
	pools []int  // pools (in order) whose options fit one pod
	why   []string
}

// unit is identical pods of one or more workloads, restricted to a zone when they spread
// over zones. How many of its pods a packing has placed is the packing's (packing.rem).
type unit struct {
	idx     int // in model.units
	w       int // the first member: every member has its class and requests
	members []member
	zone    int // -1: any
	count   int
}

func compile(s *analysis.Analyzer, region string, in simmodel.SimulationInput) *model {
	md := &model{s: s, region: region, currency: simmodel.Currency(in.Pools, s.Clouds(), region), seed: in.Seed, configBound: in.ConfigurationBound, classByShape: map[string]int{}, columns: map[string][]boundColumn{}}
	md.dims = []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourcePods}
	extra := map[corev1.ResourceName]bool{}
	for _, w := range in.Workloads {
		for k := range w.Requests {
			extra[k] = true
		}
	}
	for k := range in.DaemonOverhead {
		extra[k] = true
	}
	for _, rl := range in.PoolDaemonOverhead {
		for k := range rl {
			extra[k] = true
		}
	}
	var names []string
	for k := range extra {
		if k != corev1.ResourceCPU && k != corev1.ResourceMemory && k != corev1.ResourcePods {
			names = append(names, string(k))
		}
	}
	sort.Strings(names)
	for _, n := range names {
		md.dims = append(md.dims, corev1.ResourceName(n))
	}
	md.nres = len(md.dims)
	for _, w := range in.Workloads {
		if c := w.PerNode(); c > 0 && w.Count > 0 {
			md.dims = append(md.dims, corev1.ResourceName("per-node/"+w.Name))
			md.perNode = append(md.perNode, int64(c))
		}
	}
	md.daemon = md.vec(in.DaemonOverhead)

	zoneID := map[string]int{}
	pools := make([]simmodel.SimPool, len(in.Pools))
	copy(pools, in.Pools)
	sort.SliceStable(pools, func(i, j int) bool {
		wi, wj := weight(pools[i].Pool), weight(pools[j].Pool)
		if wi != wj {
			return wi > wj
		}
		return pools[i].Pool.Name > pools[j].Pool.Name
	})
	for i, sp := range pools {
		// The pool's instance types are its cloud's (by nodeClassRef.group), for its node class.
		nc := sp.ResolvedNodeClass(s.Clouds())
		p := &simPool{idx: i, name: sp.Pool.Name, weight: weight(sp.Pool), pool: sp.Pool, nodeClass: nc, taints: sp.Pool.Spec.Template.Spec.Taints,
			wellKnown: sp.Cloud(s.Clouds()).WellKnownLabels(), daemon: md.daemon}
		if rl, ok := in.PoolDaemonOverhead[sp.Pool.Name]; ok {
			p.daemon = md.vec(rl)
		}
		for name, q := range sp.Pool.Spec.Limits {
			v := md.quantity(name, q)
			p.limits = append(p.limits, poolLimit{name: name, limit: v})
		}
		sort.Slice(p.limits, func(a, b int) bool { return p.limits[a].name < p.limits[b].name })
		rt := s.RegionTypes(region, nc)
		for ti, offs := range rt.AdmissibleAll(sp.Pool.Requirements) {
			if len(offs) == 0 || len(offs) > 64 {
				continue // Azure sizes have at most 2 × (zones + 1) offerings
			}
			pt := md.poolType(rt, rt.InstanceTypes()[ti], offs, p, zoneID)
			pt.ti = ti
			p.types = append(p.types, pt)
		}
		p.byPrice = make([]int, len(p.types))
		for t := range p.byPrice {
			p.byPrice[t] = t
		}
		sort.SliceStable(p.byPrice, func(a, b int) bool { return p.types[p.byPrice[a]].minPrice < p.types[p.byPrice[b]].minPrice })
		md.pools = append(md.pools, p)
	}
	for z, id := range zoneID {
		for len(md.zones) <= id {
			md.zones = append(md.zones, "")
		}
		md.zones[id] = z
	}
	for _, p := range md.pools {
		for _, t := range p.types {
			t.zoneMask = make([]uint64, len(md.zones))
			for j, z := range t.zone {
				t.zoneMask[z] |= 1 << uint(j)
			}
		}
	}
	classOf := map[string]int{}
	for _, w := range in.Workloads {
		if w.Count == 0 {
			continue
		}
		md.addWorkload(w, classOf)
	}
	md.makeUnits()
	return md
}

// member is a workload's share of a unit.
type member struct{ w, count int }

func weight(p *analysis.Pool) int32 {
	if p.Spec.Weight == nil {
		return 0
	}
	return *p.Spec.Weight
}

func (md *model) poolType(rt analysis.RegionTypes, it *cloud.InstanceType, offs cloudprovider.Offerings, p *simPool, zoneID map[string]int) *poolType {
	limits := p.limits
	t := &poolType{it: it, offs: offs, usable: true}
	alloc := it.Allocatable()
	t.alloc = make([]int64, len(md.dims))
	for d, name := range md.dims[:md.nres] {
		q := alloc[name]
		t.alloc[d] = md.quantity(name, q) - p.daemon[d]
		if t.alloc[d] < 0 {
			t.usable = false
		}
	}
	copy(t.alloc[md.nres:], md.perNode)
	for _, l := range limits {
		if l.name == resources.Node {
			t.capLimit = append(t.capLimit, 1)
			continue
		}
		t.capLimit = append(t.capLimit, md.quantity(l.name, it.Capacity[l.name]))
	}
	t.minPrice = offs[0].Price
	for j, of := range offs {
		l := rt.Labels(of)
		id, ok := zoneID[l.Zone]
		if !ok {
			id = len(zoneID)
			zoneID[l.Zone] = id
		}
		t.zone = append(t.zone, id)
		t.price = append(t.price, of.Price)
		t.spot = append(t.spot, l.Spot)
		t.all |= 1 << uint(j)
		if of.Price < t.minPrice {
			t.minPrice = of.Price
		}
	}
	return t
}

// quantity converts to the packing unit: millicores for cpu, whole units otherwise (rounded
// up, as Kubernetes does for fractional byte counts).
func (md *model) quantity(name corev1.ResourceName, q resource.Quantity) int64 {
	if name == corev1.ResourceCPU {
		return q.MilliValue()
	}
	return q.Value()
}

func (md *model) vec(rl corev1.ResourceList) []int64 {
	v := make([]int64, len(md.dims))
	for d, name := range md.dims[:md.nres] {
		if q, ok := rl[name]; ok {
			v[d] = md.quantity(name, q)
		}
	}
	return v
}

func (md *model) addWorkload(w simmodel.Workload, classOf map[string]int) {
	pod := w.Pod(0)
	sw := &simWorkload{w: w, d: md.vec(resources.RequestsForPods(pod))}
	if w.PerNode() > 0 {
		md.capped++
		sw.d[md.nres+md.capped-1] = 1
	}
	md.workloads = append(md.workloads, sw)
	for d, v := range sw.d {
		if v < 0 {
			sw.bad = fmt.Sprintf("negative %s request", md.dims[d])
			return
		}
	}
	// Pods' requirements and tolerations come from the selector, affinity and tolerations
	// alone: workloads that share them share a class without deriving it again.
	quick := simmodel.SelectorKey(w)
	ci, ok := md.classByShape[quick]
	if !ok {
		reqs := scheduling.NewStrictPodRequirements(pod)
		key := analysis.RequirementsKey(reqs) + "\x03" + simmodel.TolerationKey(pod.Spec.Tolerations)
		if ci, ok = classOf[key]; !ok {
			ci = len(md.classes)
			classOf[key] = ci
			md.classes = append(md.classes, md.podClass(reqs, pod))
		}
		md.classByShape[quick] = ci
	}
	sw.class = ci
	c := md.classes[ci]
	for pi, p := range md.pools {
		if c.masks[pi] == nil {
			sw.why = append(sw.why, fmt.Sprintf("NodePool %q: %s", p.name, c.why[pi]))
			continue
		}
		if !md.fitsSomeType(p, c.masks[pi], sw.d) {
			sw.why = append(sw.why, fmt.Sprintf("NodePool %q: no instance type has enough resources for %s", p.name, md.describe(sw.d)))
			continue
		}
		sw.pools = append(sw.pools, pi)
	}
}

// podClass judges each pool for pods like pod, as Karpenter's NodeClaim.CanAdd does: taints,
// then compatibility of the pod's requirements with the pool's, then, on the combined
// requirements, the instance types and offerings.
func (md *model) podClass(reqs scheduling.Requirements, pod *corev1.Pod) *podClass {
	c := &podClass{masks: make([][]uint64, len(md.pools)), why: make([]string, len(md.pools))}
	zones := map[int]bool{}
	for pi, p := range md.pools {
		if err := p.taints.ToleratesPod(pod); err != nil {
			c.why[pi] = err.Error()
			continue
		}
		if err := p.pool.Requirements.Compatible(reqs, func(o *scheduling.CompatibilityOptions) { o.AllowUndefined = p.wellKnown }); err != nil {
			c.why[pi] = "incompatible requirements, " + err.Error()
			continue
		}
		if len(p.types) == 0 {
			c.why[pi] = "no instance type satisfies the NodePool's requirements"
			continue
		}
		merged := scheduling.NewRequirements(p.pool.Requirements.Values()...)
		merged.Add(reqs.Values()...)
		rt := md.s.RegionTypes(md.region, md.nodeClassOf(pi))
		allowed := rt.AdmissibleAll(merged)
		masks := make([]uint64, len(p.types))
		any := false
		// zoneAllowed, judged once per zone: the pool's offering j is the allowed one.
		zoneOK := make([]int8, len(md.zones)) // 0 unknown, 1 allowed, -1 not
		allowedIn := func(id int) bool {
			if zoneOK[id] == 0 {
				zoneOK[id] = -1
				if zoneAllowed(merged, md.zones[id]) {
					zoneOK[id] = 1
				}
			}
			return zoneOK[id] > 0
		}
		for t, pt := range p.types {
			for _, of := range allowed[pt.ti] {
				for j, pof := range pt.offs {
					if pof == of && allowedIn(pt.zone[j]) {
						masks[t] |= 1 << uint(j)
						if md.zones[pt.zone[j]] != "" {
							zones[pt.zone[j]] = true
						}
					}
				}
			}
			any = any || masks[t] != 0
		}
		if !any {
			c.why[pi] = "no instance type met all requirements"
			continue
		}
		c.masks[pi] = masks
	}
	for z := range zones {
		c.zones = append(c.zones, z)
	}
	sort.Slice(c.zones, func(i, j int) bool { return md.zones[c.zones[i]] < md.zones[c.zones[j]] })
	return c
}

// zoneAllowed reports whether an offering's zone z (cloud.ZoneOf) is one the requirements (the
// pool's and the pod's) allow, as Karpenter's offering compatibility judges it. The analysis admits a size
// whose zones are unknown and whose offerings are regional only without judging the zone
// (analysis.zonesUnjudged), so that the requirement analysis can say the size may be offered;
// a node placed on such an offering would be in a zone ("0": regional) the pool excludes, which
// Karpenter never launches. An offering without a zone (an EKS catalog's) is judged by nothing.
func zoneAllowed(reqs scheduling.Requirements, z string) bool {
	return z == "" || !reqs.Has(corev1.LabelTopologyZone) || reqs.Get(corev1.LabelTopologyZone).Has(z)
}

func (md *model) nodeClassOf(pi int) cloud.NodeClass { return md.pools[pi].nodeClass }

func (md *model) fitsSomeType(p *simPool, masks []uint64, d []int64) bool {
	for t, m := range masks {
		if m != 0 && p.types[t].usable && fits(p.types[t].alloc, nil, d, 1) {
			return true
		}
	}
	return false
}

// fits reports whether n more pods of request d fit into alloc after used (nil: empty).
func fits(alloc, used, d []int64, n int64) bool {
	for r, v := range d {
		var u int64
		if used != nil {
			u = used[r]
		}
		if u+v*n > alloc[r] {
			return false
		}
	}
	return true
}

// makeUnits splits each workload into units: whole, or per zone when it spreads over zones,
// with counts as even as the topology allows (max − min ≤ 1 ≤ maxSkew), which Karpenter's
// spread over the same domains also reaches for pods that all fit. Pods of different
// workloads that are identical for scheduling (same class, zone and requests) share a unit:
// packing never needs to tell them apart, and a cluster's many small Deployments often have
// the same requests. The report hands a unit's placements back to its workloads in order.
func (md *model) makeUnits() {
	byShape := map[string]*unit{}
	add := func(wi, zone, count int) {
		if count == 0 {
			return
		}
		sw := md.workloads[wi]
		key := fmt.Sprint(sw.class, "/", zone, "/", sw.d)
		u := byShape[key]
		if u == nil {
			u = &unit{idx: len(md.units), w: wi, zone: zone}
			byShape[key] = u
			md.units = append(md.units, u)
		}
		u.count += count
		u.members = append(u.members, member{w: wi, count: count})
	}
	for wi, sw := range md.workloads {
		if sw.bad != "" || len(sw.pools) == 0 {
			md.units = append(md.units, &unit{idx: len(md.units), w: wi, zone: -1, count: sw.w.Count, members: []member{{wi, sw.w.Count}}})
			continue
		}
		zones := md.classes[sw.class].zones
		if sw.w.ZoneSpread <= 0 || len(zones) == 0 {
			add(wi, -1, sw.w.Count)
			continue
		}
		n := len(zones)
		for i, z := range zones {
			c := sw.w.Count / n
			if i < sw.w.Count%n {
				c++
			}
			add(wi, z, c)
		}
	}
}

func (md *model) describe(v []int64) string {
	var parts []string
	for d, x := range v[:md.nres] {
		if x == 0 || md.dims[d] == corev1.ResourcePods {
			continue
		}
		switch md.dims[d] {
		case corev1.ResourceCPU:
			parts = append(parts, fmt.Sprintf("cpu=%s", resource.NewMilliQuantity(x, resource.DecimalSI)))
		case corev1.ResourceMemory:
			parts = append(parts, fmt.Sprintf("memory=%s", resource.NewQuantity(x, resource.BinarySI)))
		default:
			parts = append(parts, fmt.Sprintf("%s=%d", md.dims[d], x))
		}
	}
	return strings.Join(parts, ", ")
}
