package disruption

import (
	"errors"
	"time"

	corev1 "k8s.io/api/core/v1"
	clocktesting "k8s.io/utils/clock/testing"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// DefaultHorizon is how long a run lasts at most on the simulated clock.
const DefaultHorizon = 24 * time.Hour

// DefaultMaxIterations bounds a run's steps, against loops.
const DefaultMaxIterations = 10000

// Provisioner binds pending pods: given the cluster (in.ExistingNodes) and the pending pods
// (in.Pods) it returns the nodes after its rounds, those it launched among them, and the pods
// still pending (simulation.Provision).
type Provisioner func(in karpenter.Input) (nodes []karpenter.ExistingNode, pending []*corev1.Pod, err error)

// RunOptions set a run.
type RunOptions struct {
	// Start is the simulated clock's start.
	Start time.Time
	// Horizon (0: DefaultHorizon) and MaxIterations (0: DefaultMaxIterations) bound it.
	Horizon       time.Duration
	MaxIterations int
	Provision     Provisioner
	// Observe, when set, sees each event as it is made; the run stops at once (Stopped)
	// when it returns false. A search for a given run cuts a branch with it.
	Observe func(*Event) bool
}

// Event is one step that changed the cluster: a command started, finished, or an expiry.
type Event struct {
	At time.Time
	// Reason is Empty, Drifted, Underutilized or Expired; Method the controller's method
	// ("" for expiry).
	Reason karpv1.DisruptionReason
	Method string
	// Removed are the nodes deleted (their pools and instance types in Nodes); Replacements
	// the nodes launched for them.
	Removed, Replacements []*Node
	// Evicted is how many pods the drain evicted; filled when the candidates are drained.
	Evicted int
	// Savings is the command's estimated savings per hour (list prices).
	Savings float64
}

// Reasons.
const ReasonExpired karpv1.DisruptionReason = "Expired"

// RunResult is a run to its end.
type RunResult struct {
	Events []*Event
	// End is the time of the last change (a node initialized, a command started or
	// finished, a pod bound, an expiry); Steady is set when the run ended with the
	// controller proposing nothing, nothing in flight and no pod that can be placed pending.
	End    time.Time
	Steady bool
	// HitHorizon and HitBound say which bound ended a run that was not steady; Stopped
	// that RunOptions.Observe ended it.
	HitHorizon, HitBound, Stopped bool
	Iterations                    int
	// Ties is how many choices the run's disruption passes met that upstream leaves to
	// chance (ties.go; Cluster.Ties over the run). The provisioner's rounds count their own.
	Ties int
	// Blocked says, per node still there, why the last pass left it.
	Blocked map[string]*BlockedError
}

// Run runs Karpenter on the cluster on a simulated clock from ro.Start: at each step the
// queue finishes the commands whose replacements initialized, NodeClaims expire, the
// provisioner binds the pending pods, the NodeClaim conditions (Initialized, Drifted,
// Consolidatable) are set, and the disruption controller runs; its commands start in the
// queue and the controller runs again at once. When it proposes nothing the clock moves to
// the next time something can change (a node initializes or becomes consolidatable, a
// NodeClaim expires, a budget's schedule opens), or the run ends: steady, at the horizon, or
// at the iteration bound.
func Run(cl *Cluster, ctrl *Controller, ro RunOptions) (*RunResult, error) {
	if ro.Provision == nil {
		return nil, errors.New("disruption.Run: no Provisioner")
	}
	horizon := ro.Horizon
	if horizon <= 0 {
		horizon = DefaultHorizon
	}
	bound := ro.MaxIterations
	if bound <= 0 {
		bound = DefaultMaxIterations
	}
	now, end := ro.Start, ro.Start.Add(horizon)
	out := &RunResult{End: now}
	q := &Queue{}
	pendingEvent := map[*Node]*Event{}
	ties := cl.Ties
	// removedBy is the event that deleted each node, for a drain that ends later.
	removedBy := map[*Node]*Event{}
	for {
		out.Ties = cl.Ties - ties
		if out.Iterations >= bound {
			out.HitBound = true
			return out, nil
		}
		out.Iterations++
		if cl.Initialize(now) {
			out.End = now
		}
		for _, f := range q.Reconcile(cl, now) {
			if ev := pendingEvent[f.Command.Candidates[0].Node]; ev != nil {
				ev.Evicted += len(f.Evicted)
				delete(pendingEvent, f.Command.Candidates[0].Node)
			}
			out.End = now
		}
		expired, after := cl.Expire(now)
		for _, x := range expired {
			out.End = after
			if ev := removedBy[x.Node]; ev != nil && x.GracePeriodEnded {
				ev.Evicted += len(x.Evicted)
				continue
			}
			ev := &Event{At: x.At, Reason: ReasonExpired, Removed: []*Node{x.Node}, Evicted: len(x.Evicted)}
			removedBy[x.Node] = ev
			out.Events = append(out.Events, ev)
			if ro.Observe != nil && !ro.Observe(ev) {
				out.Stopped, out.Ties = true, cl.Ties-ties
				return out, nil
			}
		}
		now = after
		if changed, err := provision(cl, ctrl.opts, ro.Provision, now); err != nil {
			return nil, err
		} else if changed {
			out.End = now
		}
		cl.Initialize(now)
		cl.MarkDrifted(now)
		cl.MarkConsolidatable(now)
		pass, err := ctrl.Reconcile(cl, now)
		if err != nil {
			return nil, err
		}
		out.Blocked = pass.Blocked
		started := false
		for _, cmd := range pass.Commands {
			if cmd.At.After(end) {
				continue
			}
			if err := q.StartCommand(cl, ctrl.opts, cmd); err != nil {
				continue
			}
			started = true
			ev := &Event{At: cmd.At, Reason: cmd.Reason, Method: cmd.Method, Savings: cmd.EstimatedSavings()}
			for _, c := range cmd.Candidates {
				ev.Removed = append(ev.Removed, c.Node)
				removedBy[c.Node] = ev
			}
			pendingEvent[cmd.Candidates[0].Node] = ev
			ev.Replacements = append([]*Node(nil), cl.Nodes[len(cl.Nodes)-len(cmd.Replacements):]...)
			out.Events = append(out.Events, ev)
			if ro.Observe != nil && !ro.Observe(ev) {
				out.Stopped, out.Ties = true, cl.Ties-ties
				return out, nil
			}
			if cmd.At.After(now) {
				now = cmd.At
			}
			out.End = now
		}
		if started {
			continue
		}
		next := nextEvent(cl, q, pass, now)
		if next.IsZero() || next.After(end) {
			// Nothing in flight and nothing due before the horizon: steady.
			out.Steady = q.Len() == 0 && !initializing(cl)
			out.HitHorizon = !out.Steady
			out.Ties = cl.Ties - ties
			return out, nil
		}
		now = next
	}
}

// initializing is any node not yet initialized.
func initializing(cl *Cluster) bool {
	for _, n := range cl.Nodes {
		if !n.InitializedAt.IsZero() {
			return true
		}
	}
	return false
}

// nextEvent is the earliest time after now at which the cluster changes by time alone: a
// command's replacements or a node initialize, a node's nomination ends, a node becomes
// consolidatable, a NodeClaim expires, or (when a budget blocked a candidate) a budget's
// allowed disruptions change.
func nextEvent(cl *Cluster, q *Queue, pass Pass, now time.Time) time.Time {
	var next time.Time
	take := func(t time.Time) {
		if !t.IsZero() && t.After(now) && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	take(q.Next())
	pools := map[string]*karpv1.NodePool{}
	for _, np := range cl.Input.NodePools {
		pools[np.Name] = np
	}
	for _, n := range cl.Nodes {
		take(n.InitializedAt)
		take(n.nominatedUntil)
		take(expiresAt(n))
		if n.NodeClaim != nil && !n.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeConsolidatable) {
			take(consolidatableAt(pools[n.NodePool()], n))
		}
	}
	for _, why := range pass.Blocked {
		if why.Reason == BlockedBudget {
			take(nextBudgetChange(cl, now))
			break
		}
	}
	return next
}

// nextBudgetChange is the first minute after now, within a day, at which a pool's allowed
// disruptions for a reason differ from now's (a budget's schedule opening or closing).
func nextBudgetChange(cl *Cluster, now time.Time) time.Time {
	reasons := []karpv1.DisruptionReason{karpv1.DisruptionReasonEmpty, karpv1.DisruptionReasonDrifted, karpv1.DisruptionReasonUnderutilized}
	count := map[string]int{}
	for _, n := range cl.Nodes {
		if n.Initialized() {
			count[n.NodePool()]++
		}
	}
	clk := clocktesting.NewFakeClock(now)
	type key struct {
		pool   string
		reason karpv1.DisruptionReason
	}
	base := map[key]int{}
	for _, np := range cl.Input.NodePools {
		if len(np.Spec.Disruption.Budgets) == 0 {
			continue
		}
		for _, r := range reasons {
			base[key{np.Name, r}] = np.MustGetAllowedDisruptions(clk, count[np.Name], r)
		}
	}
	if len(base) == 0 {
		return time.Time{}
	}
	start := now.Truncate(time.Minute)
	for m := 1; m <= 24*60; m++ {
		t := start.Add(time.Duration(m) * time.Minute)
		clk.SetTime(t)
		for _, np := range cl.Input.NodePools {
			for _, r := range reasons {
				k := key{np.Name, r}
				if v, ok := base[k]; ok && np.MustGetAllowedDisruptions(clk, count[np.Name], r) != v {
					return t
				}
			}
		}
	}
	return time.Time{}
}

// provision runs the provisioner on the pending pods and merges its nodes: a node that
// gained pods is nominated (scheduler.go nominates every existing node it schedules pods to)
// and has a pod event; a node it launched becomes a NodeClaim created now that initializes
// LaunchToInitialized later (its pods bound at once, as nominated), named in the run's
// sequence. It reports whether anything was bound.
func provision(cl *Cluster, opts Options, p Provisioner, now time.Time) (bool, error) {
	if len(cl.Pending) == 0 {
		return false, nil
	}
	in := cl.Input
	in.Pods = cl.Pending
	in.ExistingNodes = nil
	byName := map[string]*Node{}
	for _, n := range cl.Nodes {
		if !n.MarkedForDeletion {
			in.ExistingNodes = append(in.ExistingNodes, n.ExistingNode)
		}
		byName[n.Name] = n
	}
	nodes, pending, err := p(in)
	if err != nil {
		return false, err
	}
	changed := len(pending) != len(cl.Pending)
	pools := map[string]*karpv1.NodePool{}
	for _, np := range cl.Input.NodePools {
		pools[np.Name] = np
	}
	for _, ex := range nodes {
		if n, ok := byName[ex.Name]; ok {
			if len(ex.Pods) != len(n.Pods) {
				n.nominatedUntil = now.Add(nominationWindow)
				PodEvent(n, now)
			}
			n.ExistingNode = ex
			continue
		}
		name := cl.newName()
		labels := make(map[string]string, len(ex.Labels))
		for k, v := range ex.Labels {
			labels[k] = v
		}
		labels[corev1.LabelHostname] = name
		ex.Name, ex.Labels = name, labels
		n := NewNode(ex, pools[ex.NodePool()], now, now.Add(opts.launchToInitialized()))
		cl.Nodes = append(cl.Nodes, n)
	}
	cl.Pending = pending
	return changed, nil
}
