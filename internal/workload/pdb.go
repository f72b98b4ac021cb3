package workload

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/clock"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"
)

// Budget is a PodDisruptionBudget of the input (policy/v1), with its selector as the
// disruption controller reads it: a nil selector selects no pod, an empty one every pod of
// the namespace (metav1.LabelSelectorAsSelector).
type Budget struct {
	Namespace, Name string
	File            string
	Line            int
	// Field is where its limit is written (spec.maxUnavailable or spec.minAvailable).
	Field     string
	FieldLine int
	Selector  labels.Selector
	Spec      policyv1.PodDisruptionBudgetSpec
}

// Label names the budget as kubectl does.
func (b Budget) Label() string { return "PodDisruptionBudget/" + b.Name }

// budgets reads the PodDisruptionBudgets. policy/v1beta1 is no longer served (removed in
// Kubernetes 1.25), so such a document is reported instead of read.
func budgets(docs []Document, s *Set) []Budget {
	var out []Budget
	for _, d := range docs {
		if d.Body["kind"] != "PodDisruptionBudget" {
			continue
		}
		if d.Body["apiVersion"] == "policy/v1beta1" {
			s.malformed(d, "PodDisruptionBudget", "apiVersion", "policy/v1beta1 PodDisruptionBudget is not served by current Kubernetes (removed in 1.25)",
				"Use apiVersion policy/v1.")
			continue
		}
		if d.Body["apiVersion"] != "policy/v1" {
			continue
		}
		var pdb policyv1.PodDisruptionBudget
		if err := decode(d.Body, &pdb); err != nil {
			s.decodeError(d, "PodDisruptionBudget", err)
			continue
		}
		sel, err := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
		if err != nil {
			s.malformed(d, "PodDisruptionBudget", "spec.selector", fmt.Sprintf("spec.selector is invalid: %v", err), "Fix the selector.")
			continue
		}
		ns := pdb.Namespace
		if ns == "" {
			ns = metav1.NamespaceDefault
		}
		field := "spec.minAvailable"
		if pdb.Spec.MaxUnavailable != nil {
			field = "spec.maxUnavailable"
		}
		out = append(out, Budget{Namespace: ns, Name: pdb.Name, File: d.File, Line: d.Line, Field: field,
			FieldLine: d.lineOf(splitField(field)), Selector: sel, Spec: pdb.Spec})
	}
	return out
}

// BudgetsOf returns the budgets that select the workload's pods (same namespace, selector
// matching the pod template's labels), as the eviction API finds them.
func (s *Set) BudgetsOf(w Workload) []Budget {
	var out []Budget
	for _, b := range s.Budgets {
		if b.Namespace == w.Namespace && b.Selector.Matches(labels.Set(w.Pod.Labels)) {
			out = append(out, b)
		}
	}
	return out
}

// Status is a budget's status as the disruption controller writes it once every pod it
// selects is Running and Ready (no pod being evicted or deleted).
type Status struct {
	// ExpectedPods, DesiredHealthy, CurrentHealthy and DisruptionsAllowed are the fields of
	// policy/v1 PodDisruptionBudgetStatus. CurrentHealthy leaves out the pods of DaemonSets,
	// which the input does not count.
	ExpectedPods, DesiredHealthy, CurrentHealthy, DisruptionsAllowed int
	// Why says how DisruptionsAllowed follows from the spec and the pods, in words.
	Why string
	// SyncFails is whether the controller cannot compute the status and its fail-safe writes
	// disruptionsAllowed 0 (and a SyncFailed condition) instead; the other counts are then
	// not written.
	SyncFails bool
	// Known is false when the input does not determine the status: the limit is invalid, or
	// an integer minAvailable counts the pods of a DaemonSet, which depend on the nodes.
	Known bool
}

// BudgetStatus computes the budget's status as the disruption controller does (trySync and
// getExpectedPodCount in k8s.io/kubernetes pkg/controller/disruption), with every selected
// pod healthy:
//   - an integer minAvailable counts the selected pods, whoever owns them;
//   - maxUnavailable and a percentage minAvailable scale against the sum of the replicas of
//     the pods' controllers (percentages rounded up). A pod without a controller (a bare Pod)
//     counts as healthy but not as expected; a pod whose controller has no scale subresource
//     (a Job's, a DaemonSet's) fails the sync, and the controller's fail-safe sets
//     disruptionsAllowed 0;
//   - no disruption is allowed while no pod is expected.
//
// The pods are the input's: each workload at its replica count. A DaemonSet's are taken to be
// at least one once it runs anywhere. internal/workload's TestBudgetStatusMatchesDisruptionController
// holds this against the controller itself.
func (s *Set) BudgetStatus(b Budget) Status {
	var (
		managed, bare, jobs  int      // pods with a scalable controller, without one, of Jobs
		unscaled, daemonSets []string // workloads whose pods have a controller without a scale
	)
	for _, w := range s.Workloads {
		if b.Namespace != w.Namespace || !b.Selector.Matches(labels.Set(w.Pod.Labels)) {
			continue
		}
		switch w.Kind {
		case "DaemonSet":
			daemonSets = append(daemonSets, w.Label())
			unscaled = append(unscaled, w.Label())
		case "Pod":
			bare += w.Replicas
		case "Job", "CronJob":
			jobs += w.Replicas
			if w.Replicas > 0 {
				unscaled = append(unscaled, w.Label())
			}
		default: // Deployment, ReplicaSet, StatefulSet, ReplicationController: spec.replicas is the scale
			managed += w.Replicas
		}
	}
	pods := managed + bare + jobs
	st := Status{CurrentHealthy: pods, Known: true}
	limit := b.Spec.MinAvailable
	name := "minAvailable"
	if b.Spec.MaxUnavailable != nil {
		limit, name = b.Spec.MaxUnavailable, "maxUnavailable"
	}
	switch {
	case limit == nil:
		// Valid in policy/v1 (no default since policy/v1beta1): getExpectedPodCount leaves
		// expectedPods 0, so the budget never allows a disruption.
		st.Why = "neither minAvailable nor maxUnavailable is set, so the disruption controller expects no pod"
		if pods > 0 {
			st.Why += " and allows no disruption"
		}
		return st
	case name == "minAvailable" && limit.Type == intstr.Int:
		if len(daemonSets) > 0 {
			return Status{Why: fmt.Sprintf("minAvailable %d counts the pods of %s, one per node it runs on", limit.IntVal, daemonSets[0])}
		}
		st.ExpectedPods, st.DesiredHealthy = pods, int(limit.IntVal)
		st.Why = fmt.Sprintf("minAvailable %d of %d pods", limit.IntVal, pods)
	case len(unscaled) > 0:
		// getExpectedScale finds no controller with a scale for the pods, trySync fails and
		// failSafe writes disruptionsAllowed 0, whatever the limit.
		return Status{SyncFails: true, Known: true,
			Why: fmt.Sprintf("%s %s scales against the replicas of the pods' controllers, and %s has none (no scale subresource): the disruption controller fails to sync the budget, and its fail-safe writes disruptionsAllowed 0",
				name, limit.String(), unscaled[0])}
	default:
		n, err := intstr.GetScaledValueFromIntOrPercent(limit, managed, true)
		if err != nil {
			return Status{}
		}
		st.ExpectedPods = managed
		if name == "maxUnavailable" {
			st.DesiredHealthy = max(managed-n, 0)
		} else {
			st.DesiredHealthy = n
		}
		st.Why = fmt.Sprintf("%s %s of %d replicas", name, limit.String(), managed)
		if bare > 0 {
			st.Why += fmt.Sprintf("; %d pods without a controller count as healthy, not as expected", bare)
		}
	}
	if st.ExpectedPods > 0 {
		st.DisruptionsAllowed = max(st.CurrentHealthy-st.DesiredHealthy, 0)
	} else if pods > 0 {
		st.Why += ": no pod is expected, and the disruption controller allows no disruption while none is"
	}
	return st
}

// NeverEvicted is whether the eviction API refuses every pod of the workload, with all the
// budgets' pods healthy: one budget that selects its pods allows no disruption, or more than
// one selects them (the eviction subresource refuses those pods outright). why names the
// budgets and the arithmetic; known is false when the input does not determine it. Karpenter
// reads budgets the same way (pkg/utils/pdb Limits.CanEvictPods).
func (s *Set) NeverEvicted(w Workload) (never bool, why string, known bool) {
	bs := s.BudgetsOf(w)
	switch len(bs) {
	case 0:
		return false, "", true
	case 1:
		st := s.BudgetStatus(bs[0])
		return st.Known && st.DisruptionsAllowed == 0, bs[0].Label() + ": " + st.Why, st.Known
	}
	names := make([]string, len(bs))
	for i, b := range bs {
		names[i] = b.Label()
	}
	return true, "selected by " + strings.Join(names, " and "), true
}

// EvictedByDrain is whether Karpenter's drain of a node evicts the pod sooner or later, so
// that its budget decides how long the drain takes. Two things must hold. The drain waits for
// it (podutils.IsWaitingEviction): a pod that tolerates the karpenter.sh/disrupted:NoSchedule
// taint is not waited for and goes with the node. And it is not annotated
// karpenter.sh/do-not-disrupt "true", which the drain never evicts (podutils.IsEvictable). A
// duration annotation ends, and an invalid value counts as none, as upstream reads it.
func EvictedByDrain(p *corev1.Pod) bool {
	running := p.DeepCopy()
	running.Status.Phase = corev1.PodRunning
	return podutils.IsWaitingEviction(running, clock.RealClock{}) && p.Annotations[karpv1.DoNotDisruptAnnotationKey] != "true"
}

// AllowedDisruptions is the budget's status.disruptionsAllowed once every pod it selects is
// running and healthy (BudgetStatus), and why, in words. ok is false when the input does not
// determine it.
func (s *Set) AllowedDisruptions(b Budget) (allowed int, why string, ok bool) {
	st := s.BudgetStatus(b)
	return st.DisruptionsAllowed, st.Why, st.Known
}
