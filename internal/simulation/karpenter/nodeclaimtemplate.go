package karpenter

import (
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"
)

// template is a NodePool's NodeClaim template (NodeClaimTemplate upstream).
type template struct {
	nodePool            *karpv1.NodePool
	taints              []corev1.Taint
	requirements        scheduling.Requirements
	instanceTypeOptions []*cloudprovider.InstanceType
	daemonGroups        []daemonGroup
	// groupOf is the index of each option's daemon group.
	groupOf    map[*cloudprovider.InstanceType]int
	overhead   map[*cloudprovider.InstanceType]vec
	overheadOK bool
	// daemonPorts is whether a DaemonSet pod of a group uses a host port.
	daemonPorts bool
	// limitsFor and withinFor memoise withinLimits.
	limitsFor corev1.ResourceList
	withinFor []*cloudprovider.InstanceType
	// allow is the CompatibilityOption of the pool's cloud: its well-known labels. wellKnown is
	// the same set, for the allocation-free checks (cloud.Compatible).
	allow     func(*scheduling.CompatibilityOptions)
	wellKnown sets.Set[string]
}

// newTemplate builds a NodePool's template and pre-filters its instance types by the pool's
// requirements. It returns nil when none is left, and Karpenter then skips the pool. The
// round's memo keeps the answers, since the pool's NodeClaims start with the same
// requirements, but for the hostname. wellKnown are the label keys of the pool's cloud (nil:
// the process-wide set).
func newTemplate(cache *compatCache, np *karpv1.NodePool, its []*cloudprovider.InstanceType, relaxMinValues bool, wellKnown sets.Set[string]) *template {
	nc := np.Spec.Template.ToNodeClaim()
	labels := map[string]string{}
	for k, v := range nc.Labels {
		labels[k] = v
	}
	labels[karpv1.NodePoolLabelKey] = np.Name
	labels[karpv1.NodeClassLabelKey(np.Spec.Template.Spec.NodeClassRef.GroupKind())] = np.Spec.Template.Spec.NodeClassRef.Name
	reqs := scheduling.NewRequirements()
	reqs.Add(scheduling.NewNodeSelectorRequirementsWithMinValues(nc.Spec.Requirements...).Values()...)
	reqs.Add(scheduling.NewLabelRequirements(labels).Values()...)
	// DaemonSets selecting on these labels are counted on Karpenter's nodes.
	reqs.Add(scheduling.NewRequirement(karpv1.NodeRegisteredLabelKey, corev1.NodeSelectorOpIn, "true"))
	reqs.Add(scheduling.NewRequirement(karpv1.NodeInitializedLabelKey, corev1.NodeSelectorOpIn, "true"))
	t := &template{nodePool: np, taints: nc.Spec.Taints, requirements: reqs, allow: scheduling.AllowUndefinedWellKnownLabels, wellKnown: karpv1.WellKnownLabels}
	if wellKnown != nil {
		t.allow = func(o *scheduling.CompatibilityOptions) { o.AllowUndefined = wellKnown }
		t.wellKnown = wellKnown
	}
	all := []daemonGroup{{instanceTypes: its, hostPorts: scheduling.NewHostPortUsage()}}
	opts, _, err := filterInstanceTypes(cache, its, reqs, &corev1.Pod{}, false, corev1.ResourceList{}, all, nil, corev1.ResourceList{}, relaxMinValues)
	if err != nil || len(opts) == 0 {
		return nil
	}
	t.instanceTypeOptions = opts
	return t
}

// overheadVecs is, per instance type of the template, its daemon overhead as a vector. ok is
// false when an overhead is not one.
func (t *template) overheadVecs() (map[*cloudprovider.InstanceType]vec, bool) {
	if t.overhead == nil {
		t.overhead, t.overheadOK = map[*cloudprovider.InstanceType]vec{}, true
		for _, g := range t.daemonGroups {
			ov, ok := toVec(g.overhead)
			if !ok && len(g.overhead) > 0 {
				t.overheadOK = false
			}
			for _, it := range g.instanceTypes {
				t.overhead[it] = ov
			}
		}
	}
	return t.overhead, t.overheadOK
}

// daemonGroup is a set of a template's instance types that run the same DaemonSet pods.
type daemonGroup struct {
	key           string
	instanceTypes []*cloudprovider.InstanceType
	members       map[*cloudprovider.InstanceType]bool
	overhead      corev1.ResourceList
	hostPorts     *scheduling.HostPortUsage
}

// daemonOverheadGroups groups the template's instance types by the DaemonSet pods that would
// run on them (buildDaemonOverheadGroups upstream). Upstream returns the groups in map order.
// That order only changes the order of options, which the launch re-sorts by price.
func daemonOverheadGroups(t *template, daemons []*corev1.Pod) []daemonGroup {
	groups := map[string]*daemonGroup{}
	var keys []string
	for _, it := range t.instanceTypeOptions {
		var compatible []*corev1.Pod
		for _, p := range daemons {
			if daemonCompatible(t, it, p) {
				compatible = append(compatible, p)
			}
		}
		key := podSetKey(compatible)
		if g, ok := groups[key]; ok {
			g.instanceTypes = append(g.instanceTypes, it)
			continue
		}
		var overhead corev1.ResourceList
		if len(compatible) > 0 {
			overhead = resources.RequestsForPods(compatible...)
		}
		hp := scheduling.NewHostPortUsage()
		for _, p := range compatible {
			ports := scheduling.GetHostPorts(p)
			t.daemonPorts = t.daemonPorts || len(ports) > 0
			hp.Add(p, ports)
		}
		groups[key] = &daemonGroup{key: key, instanceTypes: []*cloudprovider.InstanceType{it}, overhead: overhead, hostPorts: hp}
		keys = append(keys, key)
	}
	sort.Strings(keys)
	out := make([]daemonGroup, len(keys))
	for i, k := range keys {
		out[i] = *groups[k]
		out[i].members = make(map[*cloudprovider.InstanceType]bool, len(out[i].instanceTypes))
		for _, it := range out[i].instanceTypes {
			out[i].members[it] = true
		}
	}
	return out
}

// daemonFoldOrder is the order of the template's daemon groups in upstream's fold of their
// overheads. Upstream's groups come in map order, which is random. The order decides the
// result only when a group has no DaemonSet pod, since its empty overhead empties the fold.
// Then the order is a random permutation drawn from the tie-breaker. It is key order when
// the tie-breaker takes the first each time.
func daemonFoldOrder(groups []daemonGroup, t *ties) []int {
	order := make([]int, len(groups))
	for i := range order {
		order[i] = i
	}
	empty := false
	for _, g := range groups {
		empty = empty || len(g.overhead) == 0
	}
	if !empty || len(groups) < 2 {
		return order
	}
	out := make([]int, 0, len(groups))
	for len(order) > 0 {
		c := t.choose(len(order))
		out = append(out, order[c])
		order = append(order[:c], order[c+1:]...)
	}
	return out
}

func podSetKey(pods []*corev1.Pod) string {
	keys := make([]string, len(pods))
	for i, p := range pods {
		keys[i] = p.Namespace + "/" + p.Name
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

// daemonCompatible is isDaemonPodCompatible. The pod tolerates PreferNoSchedule, and must
// tolerate the pool's taints. Its strict requirements must be compatible with the template
// and intersect the instance type's. A failing first required node-affinity term is dropped
// and the next one tried. Like upstream it mutates the DaemonSet pod it is given.
func daemonCompatible(t *template, it *cloudprovider.InstanceType, p *corev1.Pod) bool {
	(&preferences{}).toleratePreferNoScheduleTaints(p)
	if err := scheduling.Taints(t.taints).ToleratesPod(p); err != nil {
		return false
	}
	for {
		reqs := scheduling.NewStrictPodRequirements(p)
		if t.requirements.IsCompatible(reqs, t.allow) && it.Requirements.Intersects(reqs) == nil {
			return true
		}
		if !removeRequiredNodeAffinityTerm(p) {
			return false
		}
	}
}
