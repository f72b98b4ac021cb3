package simulate

import (
	"fmt"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// pendingGroup is the workloads whose pods stay pending for one and the same reason: a pool at
// its limits leaves dozens of workloads pending with one reason, which is said once.
type pendingGroup struct {
	Reason    string
	Pods      int
	Workloads []simmodel.Unschedulable
}

// pendingGroups groups a simulation's unschedulable pods by reason, reasons in the order first
// met and workloads in the simulation's order.
func pendingGroups(us []simmodel.Unschedulable) []pendingGroup {
	var out []pendingGroup
	at := map[string]int{}
	for _, u := range us {
		i, ok := at[u.Reason]
		if !ok {
			i = len(out)
			at[u.Reason] = i
			// Karpenter's reason for several pools is one error per pool, a line each.
			out = append(out, pendingGroup{Reason: strings.ReplaceAll(u.Reason, "\n", "; ")})
		}
		out[i].Pods += u.Count
		out[i].Workloads = append(out[i].Workloads, u)
	}
	return out
}

// Subject is "1 pod of Deployment/a", "3 pods of Deployment/a" or "40 pods of 3 workloads".
func (g pendingGroup) Subject() string {
	if len(g.Workloads) == 1 {
		return fmt.Sprintf("%s of %s", simreport.PluralWord(g.Pods, "pod", "pods"), g.Workloads[0].Workload)
	}
	return fmt.Sprintf("%s of %d workloads", simreport.PluralWord(g.Pods, "pod", "pods"), len(g.Workloads))
}

// List is the workloads with their pending pods ("Deployment/a 1, Deployment/b 38"), empty for
// a single workload (the subject names it).
func (g pendingGroup) List() string {
	if len(g.Workloads) == 1 {
		return ""
	}
	parts := make([]string, len(g.Workloads))
	for i, u := range g.Workloads {
		parts[i] = fmt.Sprintf("%s %d", u.Workload, u.Count)
	}
	return strings.Join(parts, ", ")
}
