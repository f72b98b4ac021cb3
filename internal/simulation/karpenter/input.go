package karpenter

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// Input is one provisioning round. It holds the pending pods and the NodePools that may launch
// nodes for them. The pools may come in any order: they are ordered by weight, as the
// provisioner orders them. Each pool has its instance types as the cloud provider lists
// them, and its launch choice. There is one pod per DaemonSet.
type Input struct {
	NodePools     []*karpv1.NodePool
	InstanceTypes map[string][]*cloudprovider.InstanceType
	// Launchers holds, per NodePool, the launch choice of the cloud its nodeClassRef names. A
	// pool without one launches nothing, as no provider would answer its Create.
	Launchers map[string]cloud.Launcher
	// WellKnownLabels holds, per NodePool, the label keys its cloud's Karpenter knows
	// (cloud.Labels.WellKnownLabels). A pod may select on these keys without the pool defining
	// them, as scheduling.AllowUndefinedWellKnownLabels allows in Karpenter's own binary. This
	// binary links two providers, and both their inits extend karpv1.WellKnownLabels. A pool
	// without an entry uses that process-wide set.
	WellKnownLabels map[string]sets.Set[string]
	Pods            []*corev1.Pod
	DaemonSetPods   []*corev1.Pod
	// ExistingNodes are the nodes already in the cluster. Pods are tried on them before any
	// NodeClaim. Their pods count in the topology, and their capacity in their pool's limits.
	ExistingNodes []ExistingNode
	// Moving are the pods, by UID, that a consolidation simulation moves off its candidates.
	// They are not placed on a node UnderConsolidateAfter. Nil outside such a simulation.
	Moving map[types.UID]bool
	// MinValuesBestEffort is Karpenter's --min-values-policy=BestEffort. The default, Strict,
	// drops a NodeClaim whose options cannot meet minValues.
	MinValuesBestEffort bool
	// TieBreaks resolves the ties Karpenter breaks at random (see TieBreaker). Nil takes the
	// first alternative (FirstTie).
	TieBreaks TieBreaker
	// FixedTies, when set, answers ties by a fixed rule before any TieBreaker sees them. It is
	// given the tie's index among the round's ties, those it answers included, and its arity.
	// It returns the alternative taken and true, or false to leave the tie to the breaker. A
	// tie it answers is not counted, so Outcomes, Enumerate and Reach cannot vary it.
	// Karpenter has no such rule. It exists so a test can break a tie rule on purpose and see
	// the fidelity gate fail (benchcmp).
	FixedTies func(index, n int) (int, bool)
	// Memo, when set, keeps what the existing nodes' bound pods give (their requests, the
	// topology's counts) for later Solves on the same cluster (see Memo). It changes no
	// decision.
	Memo *Memo
}

// NodeClaim is one NodeClaim Karpenter would create.
type NodeClaim struct {
	NodePool string
	// Pods are bound to it in the order the scheduler added them.
	Pods []*corev1.Pod
	// Requirements are the NodeClaim's final requirements. The hostname placeholder is
	// removed, and the instance types and capacity types of the launched options are added.
	Requirements scheduling.Requirements
	// InstanceTypeOptions are the options sent to the cloud provider, ordered by price and
	// truncated to MaxInstanceTypes.
	InstanceTypeOptions cloudprovider.InstanceTypes
	// Requests are the pods' requests plus the smallest daemon overhead among the options.
	Requests corev1.ResourceList
	// Launch is what the Azure provider launches for it. It is nil when no option is left at
	// launch.
	Launch *Launch
	// seq is its rank in creation order. NodeClaims come in the scheduler's last order.
	seq int
}

// Launch is the Azure provider's choice for a NodeClaim.
type Launch struct {
	InstanceType *cloudprovider.InstanceType
	Offering     *cloudprovider.Offering
	// Zones are the zones of the equally ranked best offerings. The provider shuffles them
	// before ranking, so it picks one of them at random. Offering is the first by name.
	Zones []string
}

// Result is the provisioning decision.
type Result struct {
	NodeClaims []*NodeClaim
	// ExistingNodePods holds, per existing node by name, the pending pods bound to it in the
	// order the scheduler added them.
	ExistingNodePods map[string][]*corev1.Pod
	// PodErrors holds, per pod that would stay pending, Karpenter's reason.
	PodErrors map[*corev1.Pod]error
	// Ties is how many ties the round met that Karpenter breaks at random (see TieBreaker).
	Ties int
	// tieArities and tieChoices hold, per tie in the order met, its number of alternatives and
	// the one taken.
	tieArities, tieChoices []int
	// round is what the result was solved from, for Outcomes to run again.
	round *round
}

// MaxInstanceTypes is how many options the provisioner sends with a NodeClaim
// (sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling.MaxInstanceTypes).
const MaxInstanceTypes = 600
