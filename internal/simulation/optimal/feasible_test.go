package optimal

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// Only like is compared with like: a feasible packing replaces the optimum when it places at
// least as many pods of every workload and costs less or leaves fewer pending; one that
// leaves pods pending the solver places is not cheaper, whatever it costs.
func TestNotAboveComparesTheSamePods(t *testing.T) {
	sim := func(cost float64, pods map[string]int) *simmodel.Simulation {
		s := &simmodel.Simulation{Method: simmodel.MethodKarpenter, HourlyCost: cost, LowerBound: 0.5}
		for w, n := range pods {
			s.Nodes = append(s.Nodes, simmodel.SimNode{Pool: "p", Pods: []simmodel.PodCount{{Workload: w, Count: n}}})
			s.ScheduledPods += n
		}
		return s
	}
	opt := sim(1, map[string]int{"Deployment/a": 4, "Deployment/a#2": 2, "Deployment/b": 3})
	opt.Method = simmodel.MethodOptimal
	for _, c := range []struct {
		name     string
		feasible *simmodel.Simulation
		taken    bool
	}{
		{"cheaper, same pods", sim(0.9, map[string]int{"Deployment/a": 6, "Deployment/b": 3}), true},
		{"dearer, same pods", sim(1.1, map[string]int{"Deployment/a": 6, "Deployment/b": 3}), false},
		{"cheaper, fewer pods of b", sim(0.5, map[string]int{"Deployment/a": 6, "Deployment/b": 2}), false},
		{"dearer, more pods", sim(1.5, map[string]int{"Deployment/a": 6, "Deployment/b": 4}), true},
		{"none", nil, false},
	} {
		got := notAbove(opt, c.feasible)
		if got.FromKarpenter != c.taken || (c.taken && got.HourlyCost != c.feasible.HourlyCost) || (!c.taken && got != opt) {
			t.Errorf("%s: from Karpenter %v, cost %v", c.name, got.FromKarpenter, got.HourlyCost)
		}
		if got.Method != simmodel.MethodOptimal || got.LowerBound != opt.LowerBound {
			t.Errorf("%s: method %q, bound %v: the solver's must stay", c.name, got.Method, got.LowerBound)
		}
	}
}
