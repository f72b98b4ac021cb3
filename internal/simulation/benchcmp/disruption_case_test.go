package benchcmp

import (
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// disruptionCase is one scenario of the disruption comparator: a before input settled from
// empty, and an optional change settled again.
type disruptionCase struct {
	name string
	// kind is what changes: settle (nothing), scale-down, pool-change, class-change.
	kind string
	sc   scenario
	pdbs []*policyv1.PodDisruptionBudget
	// afterPools are the NodePools after the change (nil: unchanged); afterPods the pods
	// after (nil: unchanged; a scale-down reads how many of each workload, and the
	// ReplicaSet controller's ranking picks which go); classChanged says the node class's
	// hash changed.
	afterPools   []*karpv1.NodePool
	afterPods    []*corev1.Pod
	classChanged bool
	// horizon is how long each phase runs on the clock.
	horizon time.Duration
	// tags name what the case exercises, for the printed line.
	tags []string
	// wrongRule, when set, edits the emulation's NodePools only: a rule broken on purpose,
	// which the gate must catch.
	wrongRule func(*karpv1.NodePool)
	// recreatedUIDs are the UIDs of the pods recreated for each scenario pod on the
	// Karpenter side, in order, by namespace/name (withServerIdentities).
	recreatedUIDs map[string][]types.UID
}

func (c disruptionCase) changed() bool {
	return c.afterPools != nil || c.afterPods != nil || c.classChanged
}

// disruptionEvent is one NodeClaim disrupted: when (from the start), why, and which node.
type disruptionEvent struct {
	at     time.Duration
	reason string
	node   nodeKey
}

// disruptionOutcome is one side's run of a case.
type disruptionOutcome struct {
	before, after []nodeKey
	disruptions   []disruptionEvent
	pending       int
	// ties counts the choices Karpenter makes at random that the emulation met: its
	// provisioning rounds' and its disruption controller's (0 on Karpenter's side).
	ties int
	// beforeTies are those of them met before the change.
	beforeTies int
	// unwalkedTies says a tie was met that the tie-breaker cannot vary (which equal replicas
	// a scale-down deletes).
	unwalkedTies bool
	elapsed      time.Duration
	// identities are the scenario pods' UIDs and creation times on the Karpenter side, by
	// namespace/name: the emulation is given the same (withServerIdentities).
	identities map[string]podIdentity
	// replacementUIDs are the UIDs of the pods recreated for each scenario pod on the
	// Karpenter side, in order, by namespace/name.
	replacementUIDs map[string][]types.UID
}

// podIdentity is what the API server gives a pod at creation and Karpenter's queue orders
// equal pods by (scheduling/queue.go byCPUAndMemoryDescending: creation time, then UID).
type podIdentity struct {
	uid     types.UID
	created metav1.Time
}

// withServerIdentities is the case with its pods carrying the UIDs the API server gave them
// on the Karpenter side, and its creation times moved to the clocks' start (the first pod's
// at disruptionStart, the others as many seconds later as on the API server), so that both
// sides order equal pods alike. The API server's UIDs are random and its creation times the
// wall clock: the emulation cannot draw them itself.
func (c disruptionCase) withServerIdentities(up disruptionOutcome) disruptionCase {
	ids := up.identities
	if len(ids) == 0 {
		return c
	}
	var first time.Time
	for _, id := range ids {
		if first.IsZero() || id.created.Before(&metav1.Time{Time: first}) {
			first = id.created.Time
		}
	}
	stamp := func(pods []*corev1.Pod) []*corev1.Pod {
		if pods == nil {
			return nil
		}
		out := make([]*corev1.Pod, len(pods))
		for i, p := range pods {
			q := p.DeepCopy()
			if id, ok := ids[p.Namespace+"/"+p.Name]; ok {
				q.UID, q.CreationTimestamp = id.uid, metav1.NewTime(disruptionStart.Add(id.created.Sub(first)))
			}
			out[i] = q
		}
		return out
	}
	c.sc.pods = stamp(c.sc.pods)
	c.afterPods = stamp(c.afterPods)
	c.recreatedUIDs = up.replacementUIDs
	return c
}

// replacementUID gives the pod recreated for the k-th eviction of a scenario pod the UID
// Karpenter's side got for its k-th ("" past those, or for a case without them).
func (c disruptionCase) replacementUID() func(*corev1.Pod) types.UID {
	seen := map[string]int{}
	return func(evicted *corev1.Pod) types.UID {
		k := evicted.Namespace + "/" + evicted.Name
		i := seen[k]
		seen[k]++
		if i < len(c.recreatedUIDs[k]) {
			return c.recreatedUIDs[k][i]
		}
		return ""
	}
}

// reasons counts the disruptions per reason, as "Drifted=2 Empty=1".
func (o disruptionOutcome) reasons() string {
	counts := map[string]int{}
	var names []string
	for _, d := range o.disruptions {
		if counts[d.reason] == 0 {
			names = append(names, d.reason)
		}
		counts[d.reason]++
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%d", n, counts[n])
	}
	return strings.Join(parts, " ")
}

// timeline lists the disruptions in order: time, reason, node.
func (o disruptionOutcome) timeline() string {
	parts := make([]string, len(o.disruptions))
	for i, d := range o.disruptions {
		parts[i] = fmt.Sprintf("%s %s %s", d.at, d.reason, d.node)
	}
	return strings.Join(parts, "; ")
}

// cost is the steady-state hourly list price of the nodes after.
func (o disruptionOutcome) cost() float64 {
	c := 0.0
	for _, k := range o.after {
		c += k.price
	}
	return c
}

func nodeKeysString(ks []nodeKey) string {
	parts := make([]string, len(ks))
	for i, k := range ks {
		parts[i] = k.String()
	}
	return strings.Join(parts, ",")
}

// sameUpToZones is sameOutcome with zones left out: the nodes' pools, instance types and
// capacity types, and the disruptions per reason. A case that is this but not sameOutcome
// differs only in the zones its nodes were placed in.
func sameUpToZones(a, b disruptionOutcome) bool {
	strip := func(ks []nodeKey) string {
		out := make([]nodeKey, len(ks))
		for i, k := range ks {
			out[i] = nodeKey{pool: k.pool, instanceType: k.instanceType, capacityType: k.capacityType}
		}
		sortNodeKeys(out)
		return nodeKeysString(out)
	}
	return strip(a.before) == strip(b.before) && strip(a.after) == strip(b.after) && a.reasons() == b.reasons()
}

// sameOutcome is the comparator's identity: the same steady-state nodes before and after and
// the same number of disruptions per reason.
func sameOutcome(a, b disruptionOutcome) bool {
	return nodeKeysString(a.before) == nodeKeysString(b.before) &&
		nodeKeysString(a.after) == nodeKeysString(b.after) &&
		a.reasons() == b.reasons()
}
