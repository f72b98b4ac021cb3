package disruption

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// Queue is the orchestration queue (queue.go Queue): a command's replacements are launched
// and initialized before its candidates are drained and deleted.
type Queue struct {
	items []*queued
}

type queued struct {
	cmd          Command
	replacements []*Node
}

// Finished is a command whose candidates were drained: the pods evicted from them are
// pending, the nodes whose pods block their drain are left deleting.
type Finished struct {
	Command Command
	At      time.Time
	Evicted []*corev1.Pod
}

// StartCommand is Queue.StartCommand: each replacement is created (the cloud's launch
// choice on its options, as the provisioner's Create) as a node that initializes
// LaunchToInitialized later, and the candidates are marked for deletion. A replacement
// nothing can launch fails the command before any change, as a failed Create does upstream.
func (q *Queue) StartCommand(cl *Cluster, opts Options, cmd Command) error {
	var nodes []*Node
	for _, r := range cmd.Replacements {
		if !launchReplacement(cl.Input.Launchers, r) {
			return fmt.Errorf("%s: %w", cmd.Method, errNoLaunch)
		}
		np := poolNamed(cl, r.NodePool)
		launched := *r.NodeClaim
		launched.Pods = nil
		ex := karpenter.LaunchedNode(&launched, np, cl.newName())
		nodes = append(nodes, NewNode(*ex, np, cmd.At, cmd.At.Add(opts.launchToInitialized())))
	}
	for _, n := range nodes {
		cl.Nodes = append(cl.Nodes, n)
	}
	for _, c := range cmd.Candidates {
		c.MarkedForDeletion = true
	}
	q.items = append(q.items, &queued{cmd: cmd, replacements: nodes})
	return nil
}

// Reconcile is Queue.Reconcile at now: every command whose replacements are all initialized
// has its candidates drained (drain) and deleted.
func (q *Queue) Reconcile(cl *Cluster, now time.Time) []Finished {
	var out []Finished
	left := q.items[:0]
	for _, it := range q.items {
		ready := true
		for _, r := range it.replacements {
			ready = ready && r.Initialized()
		}
		if !ready {
			left = append(left, it)
			continue
		}
		f := Finished{Command: it.cmd, At: now}
		for _, c := range it.cmd.Candidates {
			f.Evicted = append(f.Evicted, drain(cl, c.Node, now)...)
		}
		out = append(out, f)
	}
	q.items = left
	return out
}

// Next is when the earliest queued command's replacements initialize (zero: none queued).
func (q *Queue) Next() time.Time {
	var next time.Time
	for _, it := range q.items {
		for _, r := range it.replacements {
			if !r.InitializedAt.IsZero() && (next.IsZero() || r.InitializedAt.Before(next)) {
				next = r.InitializedAt
			}
		}
	}
	return next
}

// Len is how many commands are in flight.
func (q *Queue) Len() int { return len(q.items) }

// drain is the termination controller's drain of a deleted node: the pods it may evict
// (neither do-not-disrupt nor protected by a PDB that allows no eviction) are evicted and
// become pending; while others are left the node stays, deleting, until its NodeClaim's
// terminationGracePeriod ends (never without one). Evicted pods are taken as ready as soon as
// they are bound again, so a PDB that allows one eviction at a time lets them all go.
func drain(cl *Cluster, n *Node, now time.Time) []*corev1.Pod {
	s := newSnapshot(cl, Options{}, now)
	var evicted, kept []*corev1.Pod
	for _, p := range n.Pods {
		if blocksDrain(s, p) {
			kept = append(kept, p)
		} else {
			evicted = append(evicted, p)
		}
	}
	n.MarkedForDeletion = true
	if len(kept) == 0 {
		removeNode(cl, n)
	} else {
		n.Pods = kept
		if n.NodeClaim != nil && n.NodeClaim.Spec.TerminationGracePeriod != nil && n.terminateAt.IsZero() {
			n.terminateAt = now.Add(n.NodeClaim.Spec.TerminationGracePeriod.Duration)
		}
	}
	evicted = cl.recreate(evicted, now)
	cl.Pending = append(cl.Pending, evicted...)
	return evicted
}

// blocksDrain is a pod the eviction API would refuse: do-not-disrupt, or a PDB allowing none.
func blocksDrain(s *snapshot, p *corev1.Pod) bool {
	if p.Annotations[karpv1.DoNotDisruptAnnotationKey] != "" && !isDisruptable(s, p) {
		return true
	}
	_, ok := s.pdbs.isEvictable(p, s.clock, false)
	return !ok
}

func removeNode(cl *Cluster, n *Node) {
	out := cl.Nodes[:0]
	for _, m := range cl.Nodes {
		if m != n {
			out = append(out, m)
		}
	}
	cl.Nodes = out
}

func poolNamed(cl *Cluster, name string) *karpv1.NodePool {
	for _, np := range cl.Input.NodePools {
		if np.Name == name {
			return np
		}
	}
	return nil
}
