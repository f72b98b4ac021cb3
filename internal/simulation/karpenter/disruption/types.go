package disruption

import (
	"fmt"
	"math"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/disruption"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// The disruption classes (types.go GracefulDisruptionClass, EventualDisruptionClass).
const (
	// GracefulDisruptionClass always respects blocking PDBs and do-not-disrupt pods.
	GracefulDisruptionClass = "graceful"
	// EventualDisruptionClass ignores them on a NodeClaim with a terminationGracePeriod.
	EventualDisruptionClass = "eventual"
)

// The methods' names, as upstream's ConsolidationType and reason name them.
const (
	MethodEmpty       = "empty"
	MethodStaticDrift = "static-drift"
	MethodDrift       = "drift"
	MethodMulti       = "multi"
	MethodSingle      = "single"
)

// Node is one node of the cluster as the disruption controller sees it: the node (its
// labels, capacity and bound pods, as the scheduler emulation takes it), its NodeClaim and its
// own annotations.
type Node struct {
	karpenter.ExistingNode
	// NodeClaim is nil for a node Karpenter does not manage. Its creation time, its
	// Initialized, Drifted and Consolidatable conditions, its LastPodEventTime, its
	// expireAfter and terminationGracePeriod and its hash annotations are read as upstream
	// reads them.
	NodeClaim *karpv1.NodeClaim
	// Annotations are the Node's own (karpenter.sh/do-not-disrupt).
	Annotations map[string]string
	// InitializedAt is when a launched NodeClaim becomes initialized; zero once it is.
	InitializedAt time.Time
	// MarkedForDeletion is set while the node is a candidate of a command in the queue, or
	// is being drained.
	MarkedForDeletion bool
	// terminateAt is when a deleting node whose drain is blocked is terminated anyway (its
	// terminationGracePeriod); zero: never.
	terminateAt time.Time
	// nominatedUntil ends the nomination of a node the provisioner scheduled pods to
	// (../state/statenode.go Nominate).
	nominatedUntil time.Time
}

// nominationWindow is how long a node stays nominated (../state/statenode.go
// nominationWindow: twice the default BatchMaxDuration of 10s).
const nominationWindow = 20 * time.Second

// Nominated is StateNode.Nominated at now.
func (n *Node) Nominated(now time.Time) bool { return n.nominatedUntil.After(now) }

// Initialized is the NodeClaim's Initialized condition.
func (n *Node) Initialized() bool {
	return n.NodeClaim != nil && n.NodeClaim.StatusConditions().IsTrue(karpv1.ConditionTypeInitialized)
}

// Cluster is the state the controller decides on.
type Cluster struct {
	// Input gives the NodePools, their instance types and launch choices and the DaemonSet
	// pods; its ExistingNodes and Pods are set from Nodes and Pending for every simulation.
	Input karpenter.Input
	Nodes []*Node
	// Pending are the pods waiting for a node.
	Pending []*corev1.Pod
	// PDBs are the PodDisruptionBudgets; their status is computed from the pods bound
	// (Limits), as kube-controller-manager's disruption controller computes it.
	PDBs []*policyv1.PodDisruptionBudget
	// CloudDrift is the cloud provider's IsDrifted for a NodeClaim (its node class hash,
	// images); nil: the cloud reports no drift.
	CloudDrift func(np *karpv1.NodePool, nc *karpv1.NodeClaim) cloudprovider.DriftReason
	// ReplacementUID, when set, is the UID the API server gives the pod that replaces an
	// evicted one ("": the emulation's own). The API server draws UIDs at random, and
	// Karpenter's queue orders equal pods created at the same time by UID.
	ReplacementUID func(evicted *corev1.Pod) types.UID
	// Recreated, when set, is told of every pod recreated after an eviction: a caller that
	// reports pods by the workload they belong to keeps counting the new pod as the old.
	Recreated func(evicted, replacement *corev1.Pod)
	// Ties counts the choices the disruption controller met that upstream leaves to chance
	// (ties.go), its scheduling simulations' ties included.
	Ties int
	// names counts the nodes the simulation created, to name them; recreated the pods
	// recreated after an eviction.
	names, recreated int
	// memo keeps the scheduling simulations' per-node sums from one simulation to the next
	// (karpenter.Memo): a node's entry holds while its pods stay the same.
	memo *karpenter.Memo
}

// schedulingMemo is the cluster's memo, made on first use.
func (c *Cluster) schedulingMemo() *karpenter.Memo {
	if c.memo == nil {
		c.memo = karpenter.NewMemo()
	}
	return c.memo
}

// newName names the next node the simulation creates. Upstream's names are random (the
// API server's generateName, the cloud's node names) and the scheduler tries existing nodes
// in name order, so where a new node comes among the others is a tie (ties.go): choice 0 is
// "node-0007", after every node so named; choice k puts it in the k-th of nameGroups groups
// after those ("node-c0007" for k = 3), in creation order within a group.
func (c *Cluster) newName() string {
	c.names++
	live := 0
	for _, n := range c.Nodes {
		if !n.MarkedForDeletion {
			live++
		}
	}
	if live > 0 {
		if k := c.choose(nameGroups + 1); k > 0 {
			return fmt.Sprintf("node-%c%04d", 'a'+k-1, c.names)
		}
	}
	return fmt.Sprintf("node-%04d", c.names)
}

// nameGroups is how many groups of names a new node can be put in besides the default: any
// order of up to 27 nodes by name can be drawn.
const nameGroups = 26

// Options are the operator's settings the controller reads.
type Options struct {
	// SpotToSpotConsolidation is the feature gate of that name (default off).
	SpotToSpotConsolidation bool
	// LaunchToInitialized is how long a NodeClaim takes from its creation to Initialized.
	// It is an assumption: the cloud's boot and the node's registration are not emulated.
	LaunchToInitialized time.Duration
}

// DefaultLaunchToInitialized is the assumed time from a NodeClaim's creation to its node
// being initialized.
const DefaultLaunchToInitialized = 90 * time.Second

func (o Options) launchToInitialized() time.Duration {
	if o.LaunchToInitialized > 0 {
		return o.LaunchToInitialized
	}
	return DefaultLaunchToInitialized
}

// Candidate is a node the controller may disrupt (types.go Candidate).
type Candidate struct {
	*Node
	instanceType *cloudprovider.InstanceType
	NodePool     *karpv1.NodePool
	zone         string
	capacityType string
	// DisruptionCost is upstream's: rescheduling cost times the lifetime remaining.
	DisruptionCost    float64
	reschedulablePods []*corev1.Pod
	// Price is the node's offering price (zone and capacity type), 0 when unknown.
	Price float64
	// RescheduleDisruptionCost is 1 plus the eviction cost of each reschedulable pod.
	RescheduleDisruptionCost float64
}

// ReschedulablePods are the pods a disruption would evict and reschedule.
func (c *Candidate) ReschedulablePods() []*corev1.Pod { return c.reschedulablePods }

// InstanceType is the candidate's instance type in its pool's list (nil when not found).
func (c *Candidate) InstanceType() *cloudprovider.InstanceType { return c.instanceType }

// PerNodeBaseDisruptionCost is upstream's constant of that name.
const PerNodeBaseDisruptionCost = 1.0

// SavingsRatio is price per unit of disruption.
func (c *Candidate) SavingsRatio() float64 { return c.Price / c.RescheduleDisruptionCost }

// OwnedByStaticNodePool is a pool with replicas.
func (c *Candidate) OwnedByStaticNodePool() bool { return c.NodePool.Spec.Replicas != nil }

// IsEmpty is a candidate with no reschedulable pod.
func (c *Candidate) IsEmpty() bool { return c.RescheduleDisruptionCost <= PerNodeBaseDisruptionCost }

// ScoreResult is the Balanced policy's score of a move (types.go ScoreResult).
type ScoreResult struct {
	SavingsFraction    float64
	DisruptionFraction float64
	K                  int32
}

// Score is savings fraction over disruption fraction.
func (r ScoreResult) Score() float64 {
	if r.SavingsFraction <= 0 {
		return 0
	}
	if r.DisruptionFraction == 0 {
		return math.Inf(1)
	}
	return r.SavingsFraction / r.DisruptionFraction
}

// Threshold is 1/K.
func (r ScoreResult) Threshold() float64 { return 1.0 / float64(r.K) }

// Approved is a score at or above the threshold.
func (r ScoreResult) Approved() bool { return r.Score() >= r.Threshold() }

// resolveNodePrice is the offering price of the node's zone and capacity type.
func resolveNodePrice(n *Node, it *cloudprovider.InstanceType) float64 {
	if it == nil {
		return 0
	}
	price, ok := it.OfferingPrice(n.Labels[corev1.LabelTopologyZone], n.Labels[karpv1.CapacityTypeLabelKey])
	if !ok || math.IsNaN(price) {
		return 0
	}
	return price
}

// BlockedError is why a node is not a candidate.
type BlockedError struct {
	// Reason is one of the Blocked* constants.
	Reason string
	Detail string
}

func (e *BlockedError) Error() string { return e.Detail }

// Why a node is not a candidate, or a candidate is not disrupted.
const (
	BlockedNotManaged       = "not managed"
	BlockedNotInitialized   = "not initialized"
	BlockedDeleting         = "deleting"
	BlockedNominated        = "nominated"
	BlockedDoNotDisruptNode = "do-not-disrupt node"
	BlockedDoNotDisruptPod  = "do-not-disrupt pod"
	BlockedPDB              = "PodDisruptionBudget"
	BlockedNoNodePool       = "no NodePool"
	BlockedBudget           = "budget"
	BlockedConsolidateAfter = "consolidateAfter"
	BlockedPolicy           = "policy"
	BlockedNotCheaper       = "no cheaper replacement"
	BlockedSpotToSpot       = "spot-to-spot"
	BlockedBalanced         = "balanced score"
	BlockedPodsDoNotFit     = "pods do not fit elsewhere"
	BlockedMultipleNodes    = "needs more than one replacement"
)

func blocked(reason, format string, args ...any) *BlockedError {
	return &BlockedError{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// newCandidate is NewCandidate: the node's checks (ValidateNodeDisruptable), its pool, and
// its pods' (ValidatePodsDisruptable: do-not-disrupt pods and PDBs), which the eventual
// class skips on a NodeClaim with a terminationGracePeriod.
func newCandidate(s *snapshot, n *Node, class string) (*Candidate, error) {
	if n.NodeClaim == nil {
		return nil, blocked(BlockedNotManaged, "node isn't managed by karpenter")
	}
	if !n.Initialized() {
		return nil, blocked(BlockedNotInitialized, "node isn't initialized")
	}
	if n.MarkedForDeletion {
		return nil, blocked(BlockedDeleting, "node is deleting or marked for deletion")
	}
	if n.Nominated(s.clock.Now()) {
		return nil, blocked(BlockedNominated, "node is nominated for a pending pod")
	}
	if n.Annotations[karpv1.DoNotDisruptAnnotationKey] == "true" {
		return nil, blocked(BlockedDoNotDisruptNode, "disruption is blocked through the %q annotation", karpv1.DoNotDisruptAnnotationKey)
	}
	poolName, ok := n.Labels[karpv1.NodePoolLabelKey]
	if !ok {
		return nil, blocked(BlockedNoNodePool, "node doesn't have required label %s", karpv1.NodePoolLabelKey)
	}
	np, its := s.pools[poolName], s.instanceTypes[poolName]
	if np == nil || its == nil {
		return nil, blocked(BlockedNoNodePool, "NodePool not found (NodePool=%s)", poolName)
	}
	it := its[n.Labels[corev1.LabelInstanceTypeStable]]
	pods := n.Pods
	if err := s.validatePodsDisruptable(n); err != nil {
		eventual := n.NodeClaim.Spec.TerminationGracePeriod != nil && class == EventualDisruptionClass
		if !eventual {
			return nil, err
		}
	}
	var reschedulable []*corev1.Pod
	for _, p := range pods {
		if podutils.IsReschedulable(p) {
			reschedulable = append(reschedulable, p)
		}
	}
	return &Candidate{
		Node:                     n,
		instanceType:             it,
		NodePool:                 np,
		capacityType:             n.Labels[karpv1.CapacityTypeLabelKey],
		zone:                     n.Labels[corev1.LabelTopologyZone],
		reschedulablePods:        reschedulable,
		DisruptionCost:           disruption.ReschedulingCost(s.ctx, pods) * disruption.LifetimeRemaining(s.clock, np, n.NodeClaim),
		Price:                    resolveNodePrice(n, it),
		RescheduleDisruptionCost: computeRescheduleDisruptionCost(s, reschedulable),
	}, nil
}

// computeRescheduleDisruptionCost is 1 plus each pod's eviction cost, negatives as 0.
func computeRescheduleDisruptionCost(s *snapshot, pods []*corev1.Pod) float64 {
	cost := PerNodeBaseDisruptionCost
	for _, p := range pods {
		cost += math.Max(0, disruption.EvictionCost(s.ctx, p))
	}
	return cost
}

// Replacement is a NodeClaim a command launches, with what the cloud launched for it.
type Replacement struct {
	*karpenter.NodeClaim
}

// Decision is what a command does.
type Decision string

// The decisions.
const (
	NoOpDecision    Decision = "no-op"
	ReplaceDecision Decision = "replace"
	DeleteDecision  Decision = "delete"
)

// Command is one disruption decision (types.go Command).
type Command struct {
	// Method is one of the Method* names; Reason the DisruptionReason it serves.
	Method       string
	Reason       karpv1.DisruptionReason
	Candidates   []*Candidate
	Replacements []*Replacement
	// Results is the scheduling simulation the command was computed from (nil for emptiness).
	Results *karpenter.Result
	// At is the simulated time the command started (after its validation).
	At time.Time
}

// Decision is replace, delete or no-op.
func (c Command) Decision() Decision {
	switch {
	case len(c.Candidates) > 0 && len(c.Replacements) > 0:
		return ReplaceDecision
	case len(c.Candidates) > 0:
		return DeleteDecision
	default:
		return NoOpDecision
	}
}

// SourceCost is the candidates' prices summed.
func (c Command) SourceCost() float64 { return sumCandidatePrices(c.Candidates) }

// EstimatedSavings is the candidates' prices less each replacement's cheapest available
// compatible offering of its first option.
func (c Command) EstimatedSavings() float64 {
	src := c.SourceCost()
	for _, r := range c.Replacements {
		if len(r.InstanceTypeOptions) == 0 {
			continue
		}
		if av := r.InstanceTypeOptions[0].Offerings.Available().Compatible(r.Requirements); len(av) > 0 {
			src -= av.Cheapest().Price
		}
	}
	return src
}

// PoolDisruptionCost is the candidates' RescheduleDisruptionCost in the pool.
func (c Command) PoolDisruptionCost(pool string) float64 {
	var cost float64
	for _, cd := range c.Candidates {
		if cd.NodePool.Name == pool {
			cost += cd.RescheduleDisruptionCost
		}
	}
	return cost
}
