package karpenter

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	resourcehelper "k8s.io/component-helpers/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// podData is what the scheduler caches per pod (scheduling.PodData upstream). It holds the
// pod's shape's requests and requirements, and whether the pod was plain when last updated.
type podData struct {
	*podShape
	// plain pods have no node requirements and no topology constraint that counts them.
	// Adding one changes a NodeClaim's requests only, so its requirements are not rebuilt.
	plain bool
}

// scheduler is one Solve of Karpenter's scheduler.
type scheduler struct {
	templates []*template
	existing  []*existingNode
	// moving is Input.Moving.
	moving         map[types.UID]bool
	newNodeClaims  []*nodeClaim
	remaining      map[string]corev1.ResourceList
	podData        map[types.UID]*podData
	topology       *topology
	preferences    preferences
	relaxMinValues bool
	nextHost       int
	cache          *compatCache
	shapes         *shapeTable
	// pdBuf holds the podData of the round's pods, in one allocation.
	pdBuf []podData
	ties  *ties
	// foldOrder is, per template, the order of its daemon groups in this run (daemonFoldOrder).
	foldOrder map[*template][]int
	byPods    byPodCount
	// stopped is set when a tie-breaker following a known outcome gave up on the round.
	stopped bool
}

// Solve runs one provisioning round. Karpenter's scheduler runs over the pending pods. Then
// the provisioner truncates each NodeClaim's options, and the cloud provider makes its
// launch choice.
func Solve(in Input) (*Result, error) {
	r, err := prepare(in)
	if err != nil {
		return nil, err
	}
	return r.run(in.TieBreaks), nil
}

// run is one Solve of the round with the given tie-breaks.
func (r *round) run(tb TieBreaker) *Result {
	out, _ := r.runUntil(tb)
	return out
}

// round is the part of a provisioning round that does not depend on Karpenter's random
// tie-breaks. It holds the NodePools in order, their templates and daemon groups, the
// topology domains and the instance-type compatibility memo. Outcomes runs it again with
// other tie-breaks.
type round struct {
	pools          []*karpv1.NodePool
	pods           []*corev1.Pod
	templates      []*template
	limits         map[string]corev1.ResourceList
	preferences    preferences
	relaxMinValues bool
	domains        *domainIndex
	cache          *compatCache
	launchers      map[string]cloud.Launcher
	shapes         *shapeTable
	// daemons are the DaemonSet pods as given. zoneClass holds their zones' classes
	// (symmetry.go).
	daemons []*corev1.Pod
	// relaxedDaemons are the copies daemonOverheadGroups relaxed. Upstream's NewScheduler
	// builds the existing nodes with them.
	relaxedDaemons []*corev1.Pod
	nodes          []ExistingNode
	zoneClass      map[string]int
	zoneClassOnce  sync.Once
	fixedTies      func(index, n int) (int, bool)
	moving         map[types.UID]bool
	memo           *Memo
}

func prepare(in Input) (*round, error) {
	r := &round{limits: map[string]corev1.ResourceList{}, relaxMinValues: in.MinValuesBestEffort, pods: in.Pods, launchers: in.Launchers, daemons: in.DaemonSetPods, nodes: in.ExistingNodes, fixedTies: in.FixedTies, moving: in.Moving, memo: in.Memo}
	for _, np := range in.NodePools {
		if np == nil {
			return nil, errors.New("nil NodePool")
		}
		if np.Spec.Template.Spec.NodeClassRef == nil {
			return nil, fmt.Errorf("NodePool %q has no nodeClassRef", np.Name)
		}
		r.pools = append(r.pools, np)
	}
	orderByWeight(r.pools)
	lists := make([][]*cloudprovider.InstanceType, len(r.pools))
	for i, np := range r.pools {
		lists[i] = in.InstanceTypes[np.Name]
	}
	r.cache = newCompatCache(indexFor(lists))
	daemons := make([]*corev1.Pod, len(in.DaemonSetPods))
	for i, p := range in.DaemonSetPods {
		daemons[i] = p.DeepCopy() // daemon compatibility relaxes (mutates) them, as upstream does
	}
	for _, np := range r.pools {
		for _, t := range np.Spec.Template.Spec.Taints {
			if t.Effect == corev1.TaintEffectPreferNoSchedule {
				r.preferences.toleratePreferNoSchedule = true
			}
		}
		r.limits[np.Name] = corev1.ResourceList(np.Spec.Limits)
		if t := newTemplate(r.cache, np, in.InstanceTypes[np.Name], r.relaxMinValues, in.WellKnownLabels[np.Name]); t != nil {
			r.templates = append(r.templates, t)
		}
	}
	for _, t := range r.templates {
		t.daemonGroups = daemonOverheadGroups(t, daemons)
		t.groupOf = map[*cloudprovider.InstanceType]int{}
		for i, g := range t.daemonGroups {
			for _, it := range g.instanceTypes {
				t.groupOf[it] = i
			}
		}
	}
	r.relaxedDaemons = daemons
	chargeExisting(r.limits, r.nodes)
	r.domains = r.memo.domainIndex(r.pools, in.InstanceTypes)
	r.shapes = newShapeTable(r.pods)
	return r, nil
}

// runUntil is run, stopped early when the tie-breaker gives up on the round. It then returns
// nil and false.
func (r *round) runUntil(tb TieBreaker) (*Result, bool) {
	s := &scheduler{
		moving:         r.moving,
		templates:      r.templates,
		remaining:      make(map[string]corev1.ResourceList, len(r.limits)),
		podData:        make(map[types.UID]*podData, len(r.pods)),
		preferences:    r.preferences,
		relaxMinValues: r.relaxMinValues,
		cache:          r.cache,
		ties:           &ties{breaker: tb, fixed: r.fixedTies},
		foldOrder:      map[*template][]int{},
	}
	if z, ok := tb.(zoneSymmetric); ok && z.moduloZones() {
		if classes := r.zoneClasses(); classes != nil {
			s.ties.reduce = func(domains []string) []int { return s.zoneRepresentatives(classes, domains) }
		}
	}
	for name, l := range r.limits {
		s.remaining[name] = l
	}
	// The daemon groups' order is drawn first: upstream builds them with the scheduler.
	for _, t := range r.templates {
		s.foldOrder[t] = daemonFoldOrder(t.daemonGroups, s.ties)
	}
	pods := make([]*corev1.Pod, len(r.pods))
	copy(pods, r.pods)
	s.shapes = r.shapes
	s.topology = newTopology(r.domains, r.shapes, r.nodes, r.memo, pods)
	s.topology.ties = s.ties
	s.existing = existingNodes(r.nodes, r.relaxedDaemons, s.topology)
	res := s.solve(pods)
	if s.stopped {
		return nil, false
	}
	out := launch(res, r.launchers, s.relaxMinValues, r.cache)
	for _, n := range s.existing {
		if len(n.pods) > 0 {
			if out.ExistingNodePods == nil {
				out.ExistingNodePods = map[string][]*corev1.Pod{}
			}
			out.ExistingNodePods[n.name] = n.pods
		}
	}
	out.Ties, out.tieArities, out.tieChoices = len(s.ties.arities), s.ties.arities, s.ties.choices
	out.round = r
	return out, true
}

// orderByWeight is the provisioner's NodePool order: weight descending, then name descending.
func orderByWeight(nps []*karpv1.NodePool) {
	w := func(np *karpv1.NodePool) int32 {
		if np.Spec.Weight == nil {
			return 0
		}
		return *np.Spec.Weight
	}
	sort.SliceStable(nps, func(a, b int) bool {
		if w(nps[a]) == w(nps[b]) {
			return nps[a].Name > nps[b].Name
		}
		return w(nps[a]) > w(nps[b])
	})
}

func (s *scheduler) updatePodData(p *corev1.Pod) {
	sh := s.shapes.forPod(p)
	pd := s.podData[p.UID]
	if pd == nil {
		if len(s.pdBuf) == 0 {
			s.pdBuf = make([]podData, 64)
		}
		pd, s.pdBuf = &s.pdBuf[0], s.pdBuf[1:]
		s.podData[p.UID] = pd
	}
	pd.podShape = sh
	pd.plain = len(sh.requirements) == 0 && s.topology.free(p)
}

// podRequests is resources.RequestsForPods(p) for one pod: resources.Ceiling's requests plus
// one pod. Ceiling's requests are component-helpers' PodRequests with the status resources.
// Ceiling also works out the limits, which the scheduler never reads. RequestsForPods copies
// the requests into a new list with Merge, with the same quantities. PodRequests' list is
// already a new one, so no copy is needed here.
func podRequests(p *corev1.Pod) corev1.ResourceList {
	reqs := resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{UseStatusResources: true})
	reqs[corev1.ResourcePods] = *resource.NewQuantity(1, resource.DecimalExponent)
	return reqs
}

type result struct {
	nodeClaims []*nodeClaim
	podErrors  map[*corev1.Pod]error
}

// solve is Scheduler.Solve. Pods are tried in queue order, each relaxed all the way on its
// first try. A pod that fails is re-queued with its preferences. It is retried while the
// queue makes progress.
func (s *scheduler) solve(pods []*corev1.Pod) result {
	podErrors := map[*corev1.Pod]error{}
	s.pdBuf = make([]podData, len(pods))
	for _, p := range pods {
		s.updatePodData(p)
	}
	q := newQueue(pods, s.podData)
	for {
		p, ok := q.pop()
		if !ok {
			break
		}
		err := s.trySchedule(p)
		if s.stopped {
			break
		}
		if err != nil {
			podErrors[p] = err
			s.topology.update(p)
			s.updatePodData(p)
			q.push(p)
		} else {
			delete(podErrors, p)
		}
	}
	for _, n := range s.newNodeClaims {
		n.finalize(s.foldOrder[n.template])
	}
	return result{nodeClaims: s.newNodeClaims, podErrors: podErrors}
}

// trySchedule adds the pod, relaxing its preferences one at a time until it fits. Upstream
// relaxes a copy of the pod. Here the copy is made only when there is something to relax.
// A pod that fits on the first try is bound as given, which is the same pod by value.
func (s *scheduler) trySchedule(p *corev1.Pod) error {
	copied := false
	for {
		err := s.add(p)
		if err == nil {
			return nil
		}
		if !copied {
			p, copied = p.DeepCopy(), true
		}
		if !s.preferences.relax(p) {
			return err
		}
		s.topology.update(p)
		s.updatePodData(p)
	}
}

func (s *scheduler) add(p *corev1.Pod) error {
	pd := s.podData[p.UID]
	s.ties.pod = p
	if s.addToExisting(p, pd) {
		return nil
	}
	// The scheduler sorts its in-flight NodeClaims, fewest pods first, before every pod it
	// does not bind to an existing node. It uses sort.Slice on the slice as it stands. The
	// same sort on the same order gives the same ties.
	s.byPods.claims = s.newNodeClaims
	sort.Sort(&s.byPods)
	for _, n := range s.newNodeClaims {
		s.ties.try(n.seq)
		if c, err := n.canAdd(p, pd, false); err == nil {
			n.add(p, pd, c)
			s.stopped = !s.ties.placed(p, n)
			return nil
		}
	}
	if len(s.templates) == 0 {
		return errors.New("nodepool requirements filtered out all available instance types")
	}
	var errs []error
	for _, t := range s.templates {
		its := t.instanceTypeOptions
		if remaining, ok := s.remaining[t.nodePool.Name]; ok {
			if nodes, ok := remaining[resources.Node]; ok && nodes.IsZero() {
				errs = append(errs, fmt.Errorf("node limits have been exhausted for nodepool %q", t.nodePool.Name))
				continue
			}
			its = t.withinLimits(remaining)
			if len(its) == 0 {
				errs = append(errs, fmt.Errorf("all available instance types exceed limits for nodepool %q", t.nodePool.Name))
				continue
			}
		}
		s.nextHost++
		n := newNodeClaim(t, s.topology, s.cache, its, fmt.Sprintf("hostname-placeholder-%04d", s.nextHost))
		n.seq = len(s.newNodeClaims)
		s.ties.try(n.seq)
		c, err := n.canAdd(p, pd, s.relaxMinValues)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		n.add(p, pd, c)
		s.newNodeClaims = append(s.newNodeClaims, n)
		s.stopped = !s.ties.placed(p, n)
		s.remaining[t.nodePool.Name] = subtractMax(s.remaining[t.nodePool.Name], n.instanceTypeOptions)
		return nil
	}
	return errors.Join(errs...)
}

// byPodCount orders NodeClaims by their number of pods. sort.Sort and sort.Slice run the same
// algorithm, both generated from one template. So sorting with it gives the permutation
// upstream's sort.Slice gives, ties included, without sort.Slice's reflection. It is used as
// a pointer to the scheduler's own one, since a slice converted to sort.Interface is
// allocated.
type byPodCount struct{ claims []*nodeClaim }

func (s *byPodCount) Len() int           { return len(s.claims) }
func (s *byPodCount) Less(a, b int) bool { return len(s.claims[a].pods) < len(s.claims[b].pods) }
func (s *byPodCount) Swap(a, b int)      { s.claims[a], s.claims[b] = s.claims[b], s.claims[a] }

// subtractMax charges a new NodeClaim against its NodePool's limits with the largest capacity
// among its options. Karpenter does so because it cannot know which one will launch.
// Upstream takes resources.MaxResources over every capacity list. Here only the limited
// resources are looked at, since the others are not subtracted from anything.
func subtractMax(remaining corev1.ResourceList, its []*cloudprovider.InstanceType) corev1.ResourceList {
	if len(its) == 0 {
		return remaining
	}
	out := make(corev1.ResourceList, len(remaining))
	for k, v := range remaining {
		var most resource.Quantity
		found := false
		for _, it := range its {
			if q, ok := it.Capacity[k]; ok && (!found || q.Cmp(most) > 0) {
				most, found = q, true
			}
		}
		cp := v.DeepCopy()
		cp.Sub(most)
		out[k] = cp
	}
	return out
}

// withinLimits is filterByRemainingResources of the template's options. It is memoised for
// the remaining limits it was last asked with. That map stays the same until a NodeClaim of
// the pool is created, since subtractMax makes a new one.
func (t *template) withinLimits(remaining corev1.ResourceList) []*cloudprovider.InstanceType {
	if t.limitsFor == nil || reflect.ValueOf(t.limitsFor).UnsafePointer() != reflect.ValueOf(remaining).UnsafePointer() {
		t.limitsFor, t.withinFor = remaining, filterByRemainingResources(t.instanceTypeOptions, remaining)
	}
	return t.withinFor
}

// filterByRemainingResources drops the instance types whose capacity exceeds what the limits leave.
func filterByRemainingResources(its []*cloudprovider.InstanceType, remaining corev1.ResourceList) []*cloudprovider.InstanceType {
	var out []*cloudprovider.InstanceType
	for _, it := range its {
		ok := true
		for name, q := range remaining {
			if resources.Cmp(it.Capacity[name], q) > 0 {
				ok = false
			}
		}
		if ok {
			out = append(out, it)
		}
	}
	return out
}
