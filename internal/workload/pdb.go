package workload

import (
	"fmt"

	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
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

// AllowedDisruptions is the budget's status.disruptionsAllowed once every pod it selects is
// running and healthy, as the disruption controller computes it (getExpectedPodCount in
// k8s.io/kubernetes pkg/controller/disruption): maxUnavailable and a percentage minAvailable
// scale against the controllers' replicas (percentages rounded up), an integer minAvailable
// against the pods; and why, in words. ok is false when the budget sets neither.
func (s *Set) AllowedDisruptions(b Budget) (allowed int, why string, ok bool) {
	pods := 0
	for _, w := range s.Workloads {
		if w.Kind != "DaemonSet" && b.Namespace == w.Namespace && b.Selector.Matches(labels.Set(w.Pod.Labels)) {
			pods += w.Replicas
		}
	}
	var desired int
	switch {
	case b.Spec.MaxUnavailable != nil:
		mu, err := intstr.GetScaledValueFromIntOrPercent(b.Spec.MaxUnavailable, pods, true)
		if err != nil {
			return 0, "", false
		}
		desired = max(pods-mu, 0)
		why = fmt.Sprintf("maxUnavailable %s of %d pods", b.Spec.MaxUnavailable.String(), pods)
	case b.Spec.MinAvailable != nil:
		ma, err := intstr.GetScaledValueFromIntOrPercent(b.Spec.MinAvailable, pods, true)
		if err != nil {
			return 0, "", false
		}
		desired = ma
		why = fmt.Sprintf("minAvailable %s of %d pods", b.Spec.MinAvailable.String(), pods)
	default:
		return 0, "", false
	}
	return max(pods-desired, 0), why, true
}
