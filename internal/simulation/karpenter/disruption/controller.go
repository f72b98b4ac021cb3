package disruption

import (
	"fmt"
	"time"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// pollingPeriod is how often the controller looks again when no method did anything.
const pollingPeriod = 10 * time.Second

// method is one disruption method (types.go Method).
type method interface {
	// shouldDisrupt filters candidates; the error says why a node is left out, nil when
	// the method simply does not apply to it.
	shouldDisrupt(*snapshot, *Candidate) (bool, *BlockedError)
	// computeCommands decides; the map says why each candidate it passed over stays.
	computeCommands(*snapshot, map[string]int, []*Candidate) ([]Command, map[string]*BlockedError, error)
	reason() karpv1.DisruptionReason
	class() string
	name() string
}

// Controller is the disruption controller (controller.go Controller): its methods in
// upstream's order, emptiness, static drift, drift, multi-node and single-node consolidation.
type Controller struct {
	opts    Options
	cons    *consolidation
	methods []method
}

// NewController is NewController with NewMethods.
func NewController(opts Options) *Controller {
	c := &consolidation{}
	return &Controller{opts: opts, cons: c, methods: []method{
		&emptiness{c}, &staticDrift{}, &drift{}, &multiNodeConsolidation{c}, &singleNodeConsolidation{c},
	}}
}

// Pass is what one Reconcile decided.
type Pass struct {
	// Commands are the commands of the first method that yielded any (nil: none did).
	Commands []Command
	// Blocked says, per node name, why each method that looked at it left it: the first
	// reason met in the methods' order.
	Blocked map[string]*BlockedError
}

// Reconcile is Controller.Reconcile at now: each method in order gets its candidates
// (GetCandidatesWithTotals), the budgets for its reason (BuildDisruptionBudgetMapping) and
// computes its commands; the first that yields any wins. The commands are returned, not
// started: the caller hands them to a Queue. Consolidation's "nothing changed since the last
// pass" shortcut (IsConsolidated) is not taken: the emulation is deterministic, so a pass on
// an unchanged cluster decides the same.
func (c *Controller) Reconcile(cl *Cluster, now time.Time) (Pass, error) {
	s := newSnapshot(cl, c.opts, now)
	out := Pass{Blocked: map[string]*BlockedError{}}
	note := func(name string, why *BlockedError) {
		if _, seen := out.Blocked[name]; !seen && why != nil {
			out.Blocked[name] = why
		}
	}
	for _, m := range c.methods {
		cands, totals, rejected := getCandidates(s, m)
		for name, why := range rejected {
			note(name, why)
		}
		if len(cands) == 0 {
			continue
		}
		c.cons.evaluator = evaluator{totals: totals}
		budgets := buildDisruptionBudgetMapping(s, m.reason())
		cmds, why, err := m.computeCommands(s, budgets, cands)
		if err != nil {
			return out, fmt.Errorf("%s: %w", m.name(), err)
		}
		for name, w := range why {
			note(name, w)
		}
		var kept []Command
		for _, cmd := range cmds {
			if cmd.Decision() == NoOpDecision {
				continue
			}
			cmd.Method, cmd.Reason = m.name(), m.reason()
			if cmd.At.IsZero() {
				cmd.At = now
			}
			kept = append(kept, cmd)
		}
		if len(kept) > 0 {
			out.Commands = kept
			return out, nil
		}
	}
	return out, nil
}
