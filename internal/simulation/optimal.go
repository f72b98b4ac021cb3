package simulation

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// optimalInput is the solver's input for the optimal mode: the shaped workloads, then the
// pods' workloads; each pool's DaemonSets plus the overhead every node runs.
func optimalInput(in Input, pools []simmodel.SimPool, res *Result) simmodel.SimulationInput {
	ws, notes := SolverWorkloads(in.Pods)
	res.Assumptions = append(res.Assumptions, notes...)
	overheads := DaemonOverheads(in.DaemonSets, pools)
	if len(in.DaemonOverhead) > 0 {
		for pool, rl := range overheads {
			overheads[pool] = addLists(in.DaemonOverhead, rl)
		}
	}
	return simmodel.SimulationInput{Region: in.Region, Pools: pools, Workloads: append(slices.Clone(in.Workloads), ws...),
		PoolDaemonOverhead: overheads, Seed: 1, ConfigurationBound: in.ConfigurationBound}
}

// SolverWorkloads turns pods into the solver's workloads, grouped per workload so that
// results name them as the input does; simmodel.WorkloadsFromPods counts each pod's requests as
// Karpenter does (init and sidecar containers, overhead). It models node affinity's first term,
// zone spread, hostname spread and required hostname anti-affinity, each counted among the
// workload's own pods; the notes say what else it leaves out.
func SolverWorkloads(in []*corev1.Pod) ([]simmodel.Workload, []string) {
	var owners []string
	byOwner := map[string][]*corev1.Pod{}
	var podAffinity, otherAnti, otherSpread, moreTerms []string
	for _, p := range in {
		name := WorkloadOf(p)
		if a := p.Spec.Affinity; a != nil {
			if a.PodAffinity != nil {
				podAffinity = appendOnce(podAffinity, name)
			}
			if aa := a.PodAntiAffinity; aa != nil {
				if len(aa.PreferredDuringSchedulingIgnoredDuringExecution) > 0 {
					otherAnti = appendOnce(otherAnti, name)
				}
				for _, term := range aa.RequiredDuringSchedulingIgnoredDuringExecution {
					if term.TopologyKey != corev1.LabelHostname || !simmodel.TermSelectsSelf(p, term) {
						otherAnti = appendOnce(otherAnti, name)
					}
				}
			}
			if na := a.NodeAffinity; na != nil && na.RequiredDuringSchedulingIgnoredDuringExecution != nil && len(na.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms) > 1 {
				moreTerms = appendOnce(moreTerms, name)
			}
		}
		for _, c := range p.Spec.TopologySpreadConstraints {
			if (c.TopologyKey != corev1.LabelTopologyZone && c.TopologyKey != corev1.LabelHostname) || c.WhenUnsatisfiable != corev1.DoNotSchedule || !simmodel.SpreadSelectsSelf(p, c) {
				otherSpread = appendOnce(otherSpread, name)
			}
		}
		if _, ok := byOwner[name]; !ok {
			owners = append(owners, name)
		}
		byOwner[name] = append(byOwner[name], p)
	}
	var notes []string
	note := func(names []string, what string) {
		if len(names) > 0 {
			notes = append(notes, fmt.Sprintf("optimal mode ignores %s (%s)", what, strings.Join(names, ", ")))
		}
	}
	note(podAffinity, "pod affinity")
	note(otherAnti, "pod anti-affinity other than required terms over kubernetes.io/hostname that select the workload's own pods (zone anti-affinity, preferred terms)")
	note(otherSpread, "topology spread other than DoNotSchedule over zones or kubernetes.io/hostname that selects the workload's own pods")
	note(moreTerms, "node affinity terms after the first")
	if shared := sharedSelectors(owners, byOwner); len(shared) > 0 {
		notes = append(notes, "optimal mode counts a workload's zone spread, hostname spread and hostname anti-affinity among its own pods only, but their selectors also match other workloads' pods ("+strings.Join(shared, "; ")+")")
	}
	var out []simmodel.Workload
	for _, o := range owners {
		ws := simmodel.WorkloadsFromPods(byOwner[o])
		for i := range ws {
			ws[i].Name = o
			if i > 0 {
				ws[i].Name = fmt.Sprintf("%s#%d", o, i+1)
			}
		}
		out = append(out, ws...)
	}
	return out, notes
}

// sharedSelectors names the workloads whose modelled spread or hostname anti-affinity
// selects pods of other workloads too ("web: api, worker"), judged on each workload's first pod.
func sharedSelectors(owners []string, byOwner map[string][]*corev1.Pod) []string {
	var out []string
	for _, o := range owners {
		p := byOwner[o][0]
		var sels []labels.Selector
		for _, c := range p.Spec.TopologySpreadConstraints {
			if c.WhenUnsatisfiable == corev1.DoNotSchedule && (c.TopologyKey == corev1.LabelTopologyZone || c.TopologyKey == corev1.LabelHostname) && simmodel.SpreadSelectsSelf(p, c) {
				if s, err := metav1.LabelSelectorAsSelector(c.LabelSelector); err == nil {
					sels = append(sels, s)
				}
			}
		}
		if a := p.Spec.Affinity; a != nil && a.PodAntiAffinity != nil {
			for _, term := range a.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
				if term.TopologyKey == corev1.LabelHostname && simmodel.TermSelectsSelf(p, term) {
					if s, err := metav1.LabelSelectorAsSelector(term.LabelSelector); err == nil {
						sels = append(sels, s)
					}
				}
			}
		}
		var others []string
		for _, other := range owners {
			q := byOwner[other][0]
			if other == o || q.Namespace != p.Namespace {
				continue
			}
			for _, s := range sels {
				if s.Matches(labels.Set(q.Labels)) {
					others = append(others, other)
					break
				}
			}
		}
		if len(others) > 0 {
			out = append(out, o+": "+strings.Join(others, ", "))
		}
	}
	return out
}

// WorkloadOf names a pod's workload in results (Deployment/web): the annotation the reader
// sets, else the pod's own name.
func WorkloadOf(p *corev1.Pod) string {
	if o := p.Annotations[workload.OwnerAnnotation]; o != "" {
		return o
	}
	return p.Name
}

// DaemonOverheads is, per NodePool name, what the DaemonSet pods that would run on the pool's
// nodes request, as Karpenter decides it (taints tolerated, requirements compatible), with a
// "pods" entry for their pod slots: the optimum charges each pool's nodes its own overhead
// (simmodel.SimulationInput.PoolDaemonOverhead), so that its lower bound holds on every pool.
func DaemonOverheads(daemons []*corev1.Pod, pools []simmodel.SimPool) map[string]corev1.ResourceList {
	out := map[string]corev1.ResourceList{}
	for _, sp := range pools {
		var on []*corev1.Pod
		// The pool's cloud's well-known labels (not every linked provider's), as in its Karpenter.
		wellKnown := sp.Cloud(analysis.Builtin()).WellKnownLabels()
		for _, d := range daemons {
			if daemonRunsOn(sp.Pool, d, wellKnown) {
				on = append(on, d)
			}
		}
		sum := corev1.ResourceList{}
		for _, d := range on {
			for k, v := range workload.Requests(d) {
				q := sum[k]
				q.Add(v)
				sum[k] = q
			}
		}
		if len(on) > 0 {
			// The DaemonSet pods also take pod slots.
			sum = maxList(sum, corev1.ResourceList{corev1.ResourcePods: *resource.NewQuantity(int64(len(on)), resource.DecimalSI)})
		}
		out[sp.Pool.Name] = sum
	}
	return out
}

// addLists sums two resource lists (either may be nil).
func addLists(a, b corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, l := range []corev1.ResourceList{a, b} {
		for k, v := range l {
			q := out[k]
			q.Add(v)
			out[k] = q
		}
	}
	return out
}

func maxList(a, b corev1.ResourceList) corev1.ResourceList {
	out := maps.Clone(a)
	if out == nil {
		out = corev1.ResourceList{}
	}
	for k, v := range b {
		if cur, ok := out[k]; !ok || v.Cmp(cur) > 0 {
			out[k] = v.DeepCopy()
		}
	}
	return out
}

func appendOnce(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}
