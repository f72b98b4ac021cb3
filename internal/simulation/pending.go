package simulation

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// PendingFindings says, for each workload whose pods a simulated round leaves pending
// (res.Primary's Unschedulable), whether a pool can ever take them: one pod of it is
// predicted alone on the same pools, with their limits untouched. Left pending alone, no pool
// ever admits it (KRP304, a warning: a pool's taints, requirements, instance types or limits
// smaller than any node that fits it); scheduled alone, the round's other pods held it back,
// through the limits they used up (KRP305, a note). It reads only the pending pods and their
// reasons, so it applies as well to the last round of a multi-round simulation.
func PendingFindings(s *analysis.Analyzer, in Input, set *workload.Set, res *Result) ([]workload.Finding, error) {
	_, sim := res.Primary()
	if sim == nil || set == nil {
		return nil, nil
	}
	byLabel := map[string][]workload.Workload{}
	for _, w := range set.Workloads {
		byLabel[w.Label()] = append(byLabel[w.Label()], w)
	}
	var out []workload.Finding
	for _, u := range sim.Unschedulable {
		pod := firstPodOf(in.Pods, u.Workload)
		if pod == nil {
			continue
		}
		pin := predictionInput(Input{Region: in.Region, Pods: []*corev1.Pod{pod}, DaemonSets: in.DaemonSets, DaemonOverhead: in.DaemonOverhead}, res.simPools)
		pin.NoTieRange = true
		alone, err := Predict(s, pin)
		if err != nil {
			return nil, err
		}
		for _, w := range byLabel[u.Workload] {
			out = append(out, pendingFinding(w, u, sim.Method, alone))
		}
	}
	return out, nil
}

func pendingFinding(w workload.Workload, u simmodel.Unschedulable, method string, alone *simmodel.Simulation) workload.Finding {
	by := "Karpenter's predicted round"
	if method == simmodel.MethodOptimal {
		by = "the optimal packing"
	}
	pods := fmt.Sprintf("%d pods", u.Count)
	if u.Count == 1 {
		pods = "1 pod"
	}
	field := podField(w.Kind, "spec")
	reason := strings.ReplaceAll(u.Reason, "\n", "; ")
	f := findings.Finding{Object: w.Label(), Path: field}
	if len(alone.Unschedulable) > 0 {
		f.Code = findings.PodsNeverScheduled
		f.Message = fmt.Sprintf("%s of %s can never be scheduled: %s leaves them pending, and a single one of them, alone on the same NodePools, is still left pending; Karpenter's reason: %s",
			pods, w.Label(), by, strings.ReplaceAll(alone.Unschedulable[0].Reason, "\n", "; "))
		f.Fix = "Change the pods' requests, node selector, affinity or tolerations, or a NodePool's requirements, taints or limits, so that a NodePool admits them, or add one that does."
	} else {
		f.Code = findings.PodsPendingThisRound
		cause := "the round's other pods used up what the pools' limits allow"
		if !strings.Contains(reason, "limits") {
			cause = "the round's other pods hold them back (their spread or affinity)"
		}
		f.Message = fmt.Sprintf("%s of %s are left pending by %s, though a NodePool takes a single one of them alone: %s; Karpenter's reason: %s",
			pods, w.Label(), by, cause, reason)
		f.Fix = "Raise the limits of the NodePool the pods go to, or leave it: a later provisioning round may place them once this round's nodes have launched."
	}
	return workload.Finding{Finding: f, File: w.File, Line: w.FieldLine(field)}
}

// firstPodOf is the first pod of the named workload, nil when none is.
func firstPodOf(pods []*corev1.Pod, name string) *corev1.Pod {
	for _, p := range pods {
		if WorkloadOf(p) == name {
			return p
		}
	}
	return nil
}
