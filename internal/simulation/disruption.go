package simulation

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/clock"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// placed is where the simulation puts a workload's pods: per pool, and whether any of them
// is on a spot node.
type placed struct {
	pools []string // in the order the nodes were reported
	spot  map[string]bool
}

// placements reads the pools (and capacity types) of each workload's pods from the
// simulation's nodes; workloads are named as the reader's OwnerAnnotation names them.
func placements(sim *simmodel.Simulation) map[string]*placed {
	out := map[string]*placed{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			p := out[pc.Workload]
			if p == nil {
				p = &placed{spot: map[string]bool{}}
				out[pc.Workload] = p
			}
			if !slices.Contains(p.pools, n.Pool) {
				p.pools = append(p.pools, n.Pool)
			}
			if n.CapacityType == karpv1.CapacityTypeSpot {
				p.spot[n.Pool] = true
			}
		}
	}
	return out
}

// DisruptionFindings checks what the disruption settings of each pool do to the workloads the
// simulation places on it (Karpenter's predicted placement when the karpenter mode ran, else
// the optimal packing, and the message says which): expiry that PodDisruptionBudgets block
// for good (KRP411), single replicas that consolidation takes down (KRP412), and
// do-not-disrupt pods on spot nodes (KRP413), and expiry that do-not-disrupt pods block for
// good (KRP414).
func DisruptionFindings(set *workload.Set, res *Result) []workload.Finding {
	_, sim := res.Primary()
	return PlacementDisruptionFindings(set, res.simPools, sim)
}

// PlacementDisruptionFindings is DisruptionFindings for a simulation of the pools made
// elsewhere (the karpenter_provisioning_simulation data source): sim.Method says whose
// placement it is.
func PlacementDisruptionFindings(set *workload.Set, simPools []simmodel.SimPool, sim *simmodel.Simulation) []workload.Finding {
	if sim == nil || set == nil {
		return nil
	}
	by := "Karpenter's predicted placement"
	if sim.Method == simmodel.MethodOptimal {
		by = "the optimal packing (not Karpenter's own decision)"
	}
	pools := map[string]*analysis.Pool{}
	for _, sp := range simPools {
		pools[sp.Pool.Name] = sp.Pool
	}
	where := placements(sim)
	// The simulation names workloads Kind/name: two of one name in different namespaces share
	// their placement, and unless it is a single pool it is not known which pool holds which.
	named := map[string]int{}
	for _, w := range set.Workloads {
		named[w.Label()]++
	}
	var out []workload.Finding
	reported := map[string]bool{} // pool + budget of KRP411: one finding per pair
	for _, w := range set.Workloads {
		if w.Kind == "DaemonSet" {
			// Karpenter's drain evicts DaemonSet pods too (after the others), so a budget that
			// never lets one go blocks expiry on every pool the DaemonSet runs on.
			for _, sp := range simPools {
				if !nodesOf(sim, sp.Pool.Name) || !daemonRunsOn(sp.Pool, w.Pod, sp.Cloud(analysis.Builtin()).WellKnownLabels()) {
					continue
				}
				if f, ok := expiryBlocked(set, w, set.BudgetsOf(w), sp.Pool, by); ok && !reported[sp.Pool.Name+"\x00"+f.Object] {
					reported[sp.Pool.Name+"\x00"+f.Object] = true
					out = append(out, f)
				}
				if f, ok := expiryBlockedByAnnotation(w, sp.Pool, by); ok {
					out = append(out, f)
				}
			}
			continue
		}
		pl := where[w.Label()]
		if pl == nil || named[w.Label()] > 1 && len(pl.pools) > 1 {
			continue
		}
		budgets := set.BudgetsOf(w)
		for _, name := range pl.pools {
			p := pools[name]
			if p == nil {
				continue
			}
			if f, ok := expiryBlocked(set, w, budgets, p, by); ok && !reported[name+"\x00"+f.Object] {
				reported[name+"\x00"+f.Object] = true
				out = append(out, f)
			}
			if f, ok := expiryBlockedByAnnotation(w, p, by); ok {
				out = append(out, f)
			}
			if f, ok := singleReplica(w, budgets, p, by); ok {
				out = append(out, f)
			}
			if pl.spot[name] {
				if f, ok := spotDoNotDisrupt(w, p, by); ok {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// expiryBlocked is KRP411: the pool expires nodes, sets no terminationGracePeriod, and the
// eviction API never lets a pod of the workload go once all the pods of its budget are healthy
// (workload.Set.NeverEvicted: a budget whose disruptionsAllowed the disruption controller sets
// to 0, or two budgets selecting the pods, which the eviction subresource refuses outright).
// Pods the drain does not evict at all are left to KRP414 (do-not-disrupt "true") or go with
// the node (they tolerate the disrupted taint).
func expiryBlocked(set *workload.Set, w workload.Workload, budgets []workload.Budget, p *analysis.Pool, by string) (workload.Finding, bool) {
	spec := p.Spec.Template.Spec
	if spec.ExpireAfter.Duration == nil || spec.TerminationGracePeriod != nil || len(budgets) == 0 || !workload.EvictedByDrain(w.Pod) {
		return workload.Finding{}, false
	}
	never, why, known := set.NeverEvicted(w)
	if !known || !never {
		return workload.Finding{}, false
	}
	expiry := fmt.Sprintf("NodePool/%s expires its nodes after %s (expireAfter) and sets no terminationGracePeriod, so Karpenter drains an expired node until every pod is evicted, without a time limit", p.Name, analysis.ShortDuration(*spec.ExpireAfter.Duration))
	fix := fmt.Sprintf("Set spec.template.spec.terminationGracePeriod on NodePool/%s (e.g. 24h) to bound the drain, or let the budget allow at least one eviction.", p.Name)
	outcome := "expired nodes holding them are never terminated"
	if endsOnItsOwn(w) {
		outcome = "expired nodes holding them are not terminated until those pods end on their own"
	}
	if w.Kind == "DaemonSet" {
		by = fmt.Sprintf("%s launches nodes of that pool, each running a pod of %s", by, w.Label())
	} else {
		by = fmt.Sprintf("%s puts the pods of %s on that pool", by, w.Label())
	}
	if len(budgets) > 1 {
		names := make([]string, len(budgets))
		for i, b := range budgets {
			names[i] = b.Label()
		}
		return workload.Finding{Finding: findings.Finding{Code: findings.ExpiryBlockedByPDB, Object: w.Label(), Path: podField(w.Kind, "metadata.labels"),
			Message: fmt.Sprintf("%s; the pods of %s are selected by %s, and the eviction API refuses to evict a pod that more than one PodDisruptionBudget selects; %s: %s",
				expiry, w.Label(), strings.Join(names, " and "), by, outcome),
			Fix: fix + " Make exactly one PodDisruptionBudget select these pods."},
			File: w.File, Line: w.FieldLine(podField(w.Kind, "metadata.labels"))}, true
	}
	b := budgets[0]
	st := set.BudgetStatus(b)
	if st.SyncFails || st.ExpectedPods == 0 {
		fix += " Use an integer spec.minAvailable, which the disruption controller counts against the selected pods whatever owns them."
	}
	return workload.Finding{Finding: findings.Finding{Code: findings.ExpiryBlockedByPDB, Object: b.Label(), Path: b.Field,
		Message: fmt.Sprintf("%s; with every pod it selects healthy, the disruption controller would set status.disruptionsAllowed of %s to 0 (%s), so the eviction API refuses its pods, and %s: %s",
			expiry, b.Label(), strings.TrimPrefix(why, b.Label()+": "), by, outcome),
		Fix: fix},
		File: b.File, Line: b.FieldLine}, true
}

// endsOnItsOwn is whether the workload's pods finish without being deleted: a Job's (or a
// CronJob's), or a bare Pod that is not restarted.
func endsOnItsOwn(w workload.Workload) bool {
	switch w.Kind {
	case "Job", "CronJob":
		return true
	case "Pod":
		return w.Pod.Spec.RestartPolicy != "" && w.Pod.Spec.RestartPolicy != corev1.RestartPolicyAlways
	}
	return false
}

// nodesOf is whether the simulation launches a node of the pool.
func nodesOf(sim *simmodel.Simulation, pool string) bool {
	for _, n := range sim.Nodes {
		if n.Pool == pool {
			return true
		}
	}
	return false
}

// expiryBlockedByAnnotation is KRP414: the pool expires nodes, sets no
// terminationGracePeriod, and the pods of the workload, which run until deleted (not a Job's,
// not a bare Pod that is not restarted; DaemonSet pods are drained too), are annotated
// do-not-disrupt "true", which the drain waits for (podutils.IsWaitingEviction) but never
// evicts (podutils.IsEvictable).
func expiryBlockedByAnnotation(w workload.Workload, p *analysis.Pool, by string) (workload.Finding, bool) {
	spec := p.Spec.Template.Spec
	if spec.ExpireAfter.Duration == nil || spec.TerminationGracePeriod != nil || endsOnItsOwn(w) || !drained(w.Pod) ||
		w.Pod.Annotations[karpv1.DoNotDisruptAnnotationKey] != "true" {
		return workload.Finding{}, false
	}
	where := fmt.Sprintf("which %s puts on that pool", by)
	if w.Kind == "DaemonSet" {
		where = fmt.Sprintf("one on every node of the pool %s launches", by)
	}
	field := podField(w.Kind, "metadata.annotations")
	return workload.Finding{Finding: findings.Finding{Code: findings.ExpiryBlockedByDoNotDisrupt, Object: w.Label(), Path: field,
		Message: fmt.Sprintf("NodePool/%s expires its nodes after %s (expireAfter) and sets no terminationGracePeriod; the pods of %s, %s, are annotated %s=\"true\", which the drain waits for but never evicts: expired nodes holding them are never terminated",
			p.Name, analysis.ShortDuration(*spec.ExpireAfter.Duration), w.Label(), where, karpv1.DoNotDisruptAnnotationKey),
		Fix: fmt.Sprintf("Set spec.template.spec.terminationGracePeriod on NodePool/%s (e.g. 24h), or give the annotation a duration (e.g. \"2h\") after which the pod may be evicted.", p.Name)},
		File: w.File, Line: w.FieldLine(field)}, true
}

// drained is whether Karpenter's drain waits for the pod (podutils.IsWaitingEviction, on the
// pod as it runs): a pod that tolerates the karpenter.sh/disrupted:NoSchedule taint (e.g. a
// toleration of every taint) is neither evicted nor waited for, and goes with the node.
func drained(p *corev1.Pod) bool {
	running := p.DeepCopy()
	running.Status.Phase = corev1.PodRunning
	return podutils.IsWaitingEviction(running, clock.RealClock{})
}

// longRunning kinds keep their pods running until they are deleted: a do-not-disrupt pod of
// theirs never ends on its own, unlike a Job's.
func longRunning(kind string) bool {
	switch kind {
	case "Deployment", "StatefulSet", "ReplicaSet", "ReplicationController":
		return true
	}
	return false
}

// singleReplica is KRP412: the workload's only pod, no budget, on a pool that consolidates
// underutilized nodes and does not annotate them do-not-disrupt. Jobs and bare Pods are left out: they are not kept at a replica count.
func singleReplica(w workload.Workload, budgets []workload.Budget, p *analysis.Pool, by string) (workload.Finding, bool) {
	d := p.Spec.Disruption
	if !longRunning(w.Kind) || w.Replicas != 1 || w.HPAMinReplicas > 1 || len(budgets) > 0 || d.ConsolidationPolicy != karpv1.ConsolidationPolicyWhenEmptyOrUnderutilized ||
		d.ConsolidateAfter.Duration == nil || p.Spec.Replicas != nil || underutilizedBlocked(p) || doNotDisrupt(w.Pod) || nodesDoNotDisrupt(p) {
		return workload.Finding{}, false
	}
	return workload.Finding{Finding: findings.Finding{Code: findings.SingleReplicaConsolidated, Object: w.Label(), Path: "spec.replicas",
		Message: fmt.Sprintf("%s runs one replica (%s) and no PodDisruptionBudget selects its pod; %s puts it on NodePool/%s, whose consolidationPolicy WhenEmptyOrUnderutilized lets Karpenter evict it whenever it consolidates the node, leaving the workload down until the pod is rescheduled",
			w.Label(), w.ReplicasFrom, by, p.Name),
		Fix: "Run at least two replicas with a PodDisruptionBudget (maxUnavailable: 1), or suppress the finding if the outage is acceptable."},
		File: w.File, Line: w.FieldLine("spec.replicas")}, true
}

// underutilizedBlocked is whether a budget without a schedule (always active) allows no
// Underutilized disruption (Budget.GetAllowedDisruptions): the pool then never consolidates
// a node that still has pods (KRP401 reports the budget). Static pools (spec.replicas) do not
// consolidate either; the caller checks that.
func underutilizedBlocked(p *analysis.Pool) bool {
	for _, b := range p.Spec.Disruption.Budgets {
		if b.Schedule != nil || len(b.Reasons) > 0 && !slices.Contains(b.Reasons, karpv1.DisruptionReasonUnderutilized) {
			continue
		}
		if n, err := b.GetAllowedDisruptions(clock.RealClock{}, probeNodes); err == nil && n == 0 {
			return true
		}
	}
	return false
}

// nodesDoNotDisrupt is whether the pool annotates its nodes karpenter.sh/do-not-disrupt
// "true" (spec.template.metadata.annotations): Karpenter then takes none of them as a
// candidate for voluntary disruption (StateNode.ValidateNodeDisruptable), though expiry,
// which deletes the NodeClaim directly, still drains them.
func nodesDoNotDisrupt(p *analysis.Pool) bool {
	return p.Spec.Template.Annotations[karpv1.DoNotDisruptAnnotationKey] == "true"
}

// probeNodes is a pool size large enough that any budget but 0 allows a disruption.
const probeNodes = 10000

// spotDoNotDisrupt is KRP413: pods annotated karpenter.sh/do-not-disrupt on spot nodes.
func spotDoNotDisrupt(w workload.Workload, p *analysis.Pool, by string) (workload.Finding, bool) {
	if !doNotDisrupt(w.Pod) {
		return workload.Finding{}, false
	}
	how := "land on"
	if p.HasTaint() {
		how = "tolerate the taints of"
	}
	field := podField(w.Kind, "metadata.annotations")
	return workload.Finding{Finding: findings.Finding{Code: findings.SpotDoNotDisrupt, Object: w.Label(), Path: field,
		Message: fmt.Sprintf("the pods of %s are annotated %s=%q, but they %s NodePool/%s and %s launches spot nodes for them: the annotation blocks only voluntary disruption, so a spot eviction still interrupts them",
			w.Label(), karpv1.DoNotDisruptAnnotationKey, w.Pod.Annotations[karpv1.DoNotDisruptAnnotationKey], how, p.Name, by),
		Fix: "Keep these pods on on-demand capacity (a nodeSelector karpenter.sh/capacity-type: on-demand, or drop the spot pool's toleration), or remove the annotation if interruptions are acceptable."},
		File: w.File, Line: w.FieldLine(field)}, true
}

// doNotDisrupt is whether Karpenter treats the pod as do-not-disrupt when it starts
// (podutils.IsDoNotDisruptActive: "true", or a duration not yet elapsed).
func doNotDisrupt(p *corev1.Pod) bool {
	return podutils.IsDoNotDisruptActive(p, clock.RealClock{}, nil)
}

// podField is the path of a field of the kind's pod (template).
func podField(kind, field string) string {
	switch kind {
	case "Pod":
		return field
	case "CronJob":
		return "spec.jobTemplate.spec.template." + field
	}
	return "spec.template." + field
}

// NamePoolsOfRequestless adds to each KRP302 finding of the set (pods without CPU or memory
// requests) the pools the simulation puts the workload's pods on: the pools whose nodes
// Karpenter sizes without those requests. The finding stays the reader's; only its message
// grows.
func NamePoolsOfRequestless(set *workload.Set, res *Result) {
	method, sim := res.Primary()
	if sim == nil || set == nil {
		return
	}
	by := "Karpenter's predicted placement"
	if method == Optimal {
		by = "the optimal packing"
	}
	where := placements(sim)
	for i := range set.Findings {
		f := &set.Findings[i]
		if f.Code != findings.PodWithoutRequests || where[f.Object] == nil {
			continue
		}
		names := make([]string, len(where[f.Object].pools))
		for j, p := range where[f.Object].pools {
			names[j] = "NodePool/" + p
		}
		f.Message += fmt.Sprintf(" (%s puts them on %s)", by, strings.Join(names, " and "))
	}
}
