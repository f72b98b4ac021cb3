package analysis

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// ClaimsPerRound is KRP119's threshold: a pool whose limits let one provisioning round open
// fewer NodeClaims than this that may each become any admissible size is reported. Karpenter
// (subtractMax in sigs.k8s.io/karpenter pkg/controllers/provisioning/scheduling/scheduler.go)
// charges every new NodeClaim with the largest capacity among its options, and filters the
// next NodeClaim's options by what is left (filterByRemainingResources). Three is the
// availability zones of a zonal Azure or AWS region: a workload spread over the zones needs a
// NodeClaim in each, in the same round, and pods that cannot share a node (anti-affinity, a
// hostname spread, more pods than a node's max pods) need more. At three or more, the first
// NodeClaim's reservation takes at most a third of the limit, and a pool whose limit holds
// three of its largest nodes is not flagged.
const ClaimsPerRound = 3

// charge is what one limited resource makes of a provisioning round: every new NodeClaim is
// charged the most of it among the sizes still within the limits, so the limit holds Claims
// NodeClaims that may each become any of them.
type charge struct {
	Name    corev1.ResourceName
	Limit   resource.Quantity
	Largest *cloud.InstanceType // the size with the most of the resource
	Most    resource.Quantity
	Claims  int
}

// checkReservation reports KRP119: the limits let one provisioning round open fewer than
// ClaimsPerRound NodeClaims that may become any admissible size. KRP104 (no limits) and KRP105
// (no size within the limits) are the pools it leaves out; static pools are not provisioned
// by the scheduler's rounds.
func checkReservation(p *Pool, o Options, a *Analysis) {
	limits := corev1.ResourceList(p.Spec.Limits)
	if len(limits) == 0 || p.Spec.Replicas != nil || !a.Summary.LimitsAllowOneNode {
		return
	}
	// The round's first NodeClaim may become any admissible size within the limits
	// (filterByRemainingResources on the untouched limits).
	within := typesWithin(a.Admissible, limits)
	cs := charges(within, limits)
	if len(cs) == 0 || cs[0].Claims >= ClaimsPerRound {
		return
	}
	words := cloud.VocabularyOf(a.cloud)
	c := cs[0]
	sizes := words.InstanceType + "s" // "sizes" on AKS, "instance types" on EKS
	msg := fmt.Sprintf("Karpenter charges each new NodeClaim against the limits with the largest capacity among the %s it may still "+
		"become: %s with %s, against %s=%s. One provisioning round can therefore open only %d new NodeClaim%s that may become any "+
		"admissible %s (fewer than %d); %s. Pods that need more nodes in one round (a zone or hostname spread, anti-affinity, more pods "+
		"than a node's max pods) stay pending until the launched nodes report their smaller real capacity, in a later round",
		sizes, c.Largest.Name, amount(c.Name, c.Most), c.Name, written(c.Limit), c.Claims, plural(c.Claims), words.InstanceType, ClaimsPerRound,
		afterFullClaims(within, limits, cs, c, sizes))
	var fixes []string
	var suggested *findings.Cap
	if capKey, v, claims, ok := capSizes(within, limits, o.LargestPod, capKeys(c.Name, words)); ok {
		fixes = append(fixes, fmt.Sprintf("require %s Lt %d (%s with %s ≤ %d: %d NodeClaims per round), if the pool's pods fit on them",
			capKey, v+1, sizes, capKey, v, claims))
		suggested = &findings.Cap{Key: capKey, Below: int(v + 1)}
	}
	var raise []string
	for _, b := range cs {
		if b.Claims < ClaimsPerRound {
			need := limitFor(a.Admissible, limits, b.Name)
			raise = append(raise, fmt.Sprintf("%s=%s", b.Name, raisedTo(b.Name, need)))
		}
	}
	fixes = append(fixes, "raise the limits to "+strings.Join(raise, ", ")+fmt.Sprintf(" (%d of the largest %s they then admit)", ClaimsPerRound, words.InstanceType))
	a.add(findings.Finding{Code: findings.LimitsReservation, Path: "spec.limits", Message: msg, Fix: strings.Join(fixes, "; or "), SuggestedCap: suggested})
}

// typesWithin returns the distinct admissible sizes whose capacity is within the limits.
func typesWithin(cands []Candidate, limits corev1.ResourceList) []*cloud.InstanceType {
	seen := map[string]bool{}
	var out []*cloud.InstanceType
	for _, c := range cands {
		if !seen[c.InstanceType.Name] && withinLimits(c.InstanceType.Capacity, limits) {
			seen[c.InstanceType.Name] = true
			out = append(out, c.InstanceType)
		}
	}
	return out
}

// charges returns, per limited resource some of the sizes have, what the round makes of it,
// the fewest NodeClaims first (then by name). The nodes limit is not one: Karpenter's
// instance types carry no "nodes" capacity, so subtractMax does not charge it.
func charges(types []*cloud.InstanceType, limits corev1.ResourceList) []charge {
	var out []charge
	for name, limit := range limits {
		var c charge
		for _, it := range types {
			if q, ok := it.Capacity[name]; ok && q.Cmp(c.Most) > 0 {
				c.Largest, c.Most = it, q
			}
		}
		if c.Largest == nil {
			continue
		}
		c.Name, c.Limit, c.Claims = name, limit, claims(limit, c.Most)
		out = append(out, c)
	}
	slices.SortFunc(out, func(x, y charge) int {
		if x.Claims != y.Claims {
			return x.Claims - y.Claims
		}
		return strings.Compare(string(x.Name), string(y.Name))
	})
	return out
}

// fullClaims is how many NodeClaims that may become any of the sizes the limits hold: the
// fewest over the limited resources; MaxInt when no limit applies to the sizes.
func fullClaims(types []*cloud.InstanceType, limits corev1.ResourceList) int {
	if cs := charges(types, limits); len(cs) > 0 {
		return cs[0].Claims
	}
	return math.MaxInt
}

// claims is floor(limit / most), for a positive most. Quantities are read as float64, exact
// for the integers of cpu, memory bytes and extended resources below 2^53; the quotient is
// then corrected so that an inexact division cannot be off by one.
func claims(limit, most resource.Quantity) int {
	l, m := limit.AsApproximateFloat64(), most.AsApproximateFloat64()
	if m <= 0 {
		return math.MaxInt
	}
	k := math.Floor(l / m)
	for k > 0 && k*m > l {
		k--
	}
	for (k+1)*m <= l {
		k++
	}
	return int(k)
}

// afterFullClaims says what the limits leave once the round has opened its NodeClaims of any
// size: every charged resource its most that many times. The next NodeClaim's options are the
// sizes within what is left, in every limited resource, so all of them are named.
func afterFullClaims(types []*cloud.InstanceType, limits corev1.ResourceList, cs []charge, binding charge, sizes string) string {
	left := limits.DeepCopy()
	var parts []string
	for _, c := range cs {
		q := left[c.Name]
		for range binding.Claims {
			q.Sub(c.Most)
		}
		left[c.Name] = q
		parts = append(parts, fmt.Sprintf("%s=%s", c.Name, leftOver(c.Name, q)))
	}
	slices.Sort(parts)
	var next *cloud.InstanceType
	for _, it := range types {
		if !withinLimits(it.Capacity, left) {
			continue
		}
		if q := it.Capacity[binding.Name]; next == nil || q.Cmp(next.Capacity[binding.Name]) > 0 {
			next = it
		}
	}
	l := strings.Join(parts, ", ")
	if next == nil {
		return fmt.Sprintf("the %s left then holds none of the admissible %s", l, sizes)
	}
	return fmt.Sprintf("the %s left then admits %s up to %s (%s)", l, sizes, amount(binding.Name, next.Capacity[binding.Name]), next.Name)
}

// capKeys are the labels a cap on the size may use, the one of the binding resource first:
// the GPU count for a GPU limit, else the vCPU count.
func capKeys(binding corev1.ResourceName, words cloud.Vocabulary) []string {
	var keys []string
	if slices.Contains(words.GPUResources, string(binding)) && words.GPUCountKey != "" {
		keys = append(keys, words.GPUCountKey)
	}
	if words.CPUKey != "" {
		keys = append(keys, words.CPUKey)
	}
	return keys
}

// capSizes finds the loosest cap on a label (the first of keys for which one exists) under
// which the limits hold at least ClaimsPerRound NodeClaims of any remaining size: the largest
// value v such that the sizes with the label at most v do, and one of them holds the pool's
// declared largest pod. It returns the key, v and the NodeClaims per round under the cap.
func capSizes(types []*cloud.InstanceType, limits, largestPod corev1.ResourceList, keys []string) (string, int64, int, bool) {
	for _, key := range keys {
		values := map[*cloud.InstanceType]int64{}
		var distinct []int64
		for _, it := range types {
			if !it.Requirements.Has(key) {
				continue
			}
			v, err := strconv.ParseInt(it.Requirements.Get(key).Any(), 10, 64)
			if err != nil {
				continue
			}
			values[it] = v
			distinct = append(distinct, v)
		}
		slices.Sort(distinct)
		distinct = slices.Compact(distinct)
		for i := len(distinct) - 1; i >= 0; i-- {
			v := distinct[i]
			var capped []*cloud.InstanceType
			holdsPod := len(largestPod) == 0
			for it, iv := range values {
				if iv <= v {
					capped = append(capped, it)
					holdsPod = holdsPod || resources.Fits(largestPod, it.Allocatable())
				}
			}
			if n := fullClaims(capped, limits); n >= ClaimsPerRound && holdsPod {
				return key, v, n, true
			}
		}
	}
	return "", 0, 0, false
}

// limitFor is the least value of the limit on name at which the pool's limits hold
// ClaimsPerRound NodeClaims of the largest size they then admit. Raising a limit admits the
// sizes it excluded, which are charged in turn, so the value is found as a fixed point:
// ClaimsPerRound times the most of name among the sizes within the raised limit, until that
// holds.
func limitFor(cands []Candidate, limits corev1.ResourceList, name corev1.ResourceName) resource.Quantity {
	raised := limits.DeepCopy()
	for {
		var most resource.Quantity
		for _, it := range typesWithin(cands, raised) {
			if q, ok := it.Capacity[name]; ok && q.Cmp(most) > 0 {
				most = q
			}
		}
		need := resource.Quantity{Format: most.Format}
		for range ClaimsPerRound {
			need.Add(most)
		}
		if need.Cmp(raised[name]) <= 0 {
			return raised[name]
		}
		raised[name] = need
	}
}

// amount is a capacity as a message names it: "96 vCPU", "384.0Gi memory", "4 nvidia.com/gpu".
func amount(name corev1.ResourceName, q resource.Quantity) string {
	switch name {
	case corev1.ResourceCPU:
		return q.String() + " vCPU"
	case corev1.ResourceMemory:
		return gib(&q) + " memory"
	}
	return q.String() + " " + string(name)
}

// written is a quantity as one writes it in a NodePool: whole numbers as numbers (2000, not
// the canonical 2k), anything else canonical (800Gi).
func written(q resource.Quantity) string {
	if q.Format == resource.DecimalSI && q.MilliValue()%1000 == 0 {
		return strconv.FormatInt(q.Value(), 10)
	}
	return q.String()
}

// raisedTo is a limit to raise to: memory in whole Gi rounded up (the value must not fall
// short of what it is computed from, a sum of byte capacities).
func raisedTo(name corev1.ResourceName, q resource.Quantity) string {
	if name == corev1.ResourceMemory && q.Sign() > 0 {
		return strconv.FormatInt((q.Value()+(1<<30)-1)>>30, 10) + "Gi"
	}
	return written(q)
}

// leftOver is what a limit leaves: memory in GiB with one decimal, as capacities are named.
func leftOver(name corev1.ResourceName, q resource.Quantity) string {
	if name == corev1.ResourceMemory {
		return gib(&q)
	}
	return written(q)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
