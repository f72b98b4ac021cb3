package benchcmp

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// disruptionKinds are the corpus's changes, drawn in turn: settle from empty only, then a
// scale-down, a change of every NodePool (drift) and a node class change (drift) on the settled cluster.
var disruptionKinds = []string{"settle", "scale-down", "pool-change", "class-change"}

// disruptionCorpusCase draws the i-th case of the seeded disruption corpus. Its pools and pods
// are a seeded AKS or EKS corpus scenario (corpusScenario, eksCorpusScenario: weights, limits,
// taints, minValues, spot and on-demand, arm64, GPU; zone and hostname spread, anti-affinity,
// DaemonSets) of its own seed; to them it adds per pool a consolidation policy (WhenEmpty,
// WhenEmptyOrUnderutilized, Balanced), consolidateAfter, budgets (a percentage, a count, zero
// for a reason, zero on a schedule at the start) and, on settle cases, expireAfter within the
// horizon; per case a PDB and do-not-disrupt pods on some workloads; and the kind's change.
func disruptionCorpusCase(seed uint64, i, maxPods int) disruptionCase {
	rng := rand.New(rand.NewPCG(seed^0xd15, uint64(i)))
	eks := rng.IntN(3) == 0
	var sc scenario
	if eks {
		sc = eksCorpusScenario(seed^0xd15, i, maxPods, eksRegionTypes)
	} else {
		sc = corpusScenario(seed^0xd15, i, maxPods, cachedRegionTypes)
	}
	kind := disruptionKinds[i%len(disruptionKinds)]
	c := disruptionCase{name: fmt.Sprintf("dis%d-%03d-%s-%s", seed, i, kind, sc.name[len(fmt.Sprintf("seed%d-%03d-", seed^0xd15, i)):]), kind: kind, sc: sc, horizon: 30 * time.Minute}
	if eks {
		c.name = fmt.Sprintf("dis%d-%03d-%s-eks-%s", seed, i, kind, sc.name[len(fmt.Sprintf("eks%d-%03d-", seed^0xd15, i)):])
	}
	for _, np := range sc.pools {
		c.tags = append(c.tags, drawDisruption(rng, np, kind == "settle" && rng.IntN(4) == 0)...)
	}
	for _, t := range c.tags {
		if t == "expiry" {
			c.horizon = time.Hour
		}
	}
	c.tags = append(c.tags, drawWorkloadGuards(rng, &c)...)
	switch kind {
	case "scale-down":
		c.afterPods = scaledDown(rng, sc.pods)
	case "pool-change":
		c.afterPools = changedPools(rng, sc.pools, eks)
	case "class-change":
		c.classChanged = true
	}
	return c
}

// drawDisruption sets a pool's disruption block and returns what it drew.
func drawDisruption(rng *rand.Rand, np *karpv1.NodePool, expire bool) []string {
	var tags []string
	d := &np.Spec.Disruption
	switch r := rng.IntN(10); {
	case r < 2:
		d.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmpty
	case r < 4:
		d.ConsolidationPolicy = karpv1.ConsolidationPolicyBalanced
		tags = append(tags, "balanced")
	default:
		d.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmptyOrUnderutilized
	}
	d.ConsolidateAfter = karpv1.MustParseNillableDuration([]string{"0s", "0s", "30s", "5m", "10m"}[rng.IntN(5)])
	switch rng.IntN(6) {
	case 0:
		d.Budgets = []karpv1.Budget{{Nodes: "1"}}
	case 1:
		d.Budgets = []karpv1.Budget{{Nodes: "50%"}}
	case 2:
		d.Budgets = []karpv1.Budget{{Nodes: "0", Reasons: []karpv1.DisruptionReason{karpv1.DisruptionReasonUnderutilized}}, {Nodes: "20%"}}
		tags = append(tags, "budget-reason")
	case 3:
		// Zero for the first quarter hour of each day: the start falls inside.
		d.Budgets = []karpv1.Budget{{Nodes: "0", Schedule: ptrTo("0 0 * * *"), Duration: &metav1.Duration{Duration: 15 * time.Minute}}, {Nodes: "10%"}}
		tags = append(tags, "budget-schedule")
	default:
		d.Budgets = []karpv1.Budget{{Nodes: "10%"}}
	}
	np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("720h")
	if expire {
		np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("40m")
		tags = append(tags, "expiry")
	}
	return tags
}

// drawWorkloadGuards puts a PDB on one workload in three cases and do-not-disrupt on one in
// five.
func drawWorkloadGuards(rng *rand.Rand, c *disruptionCase) []string {
	var tags []string
	apps := map[string]int{}
	var order []string
	for _, p := range c.sc.pods {
		app := p.Labels["app"]
		if apps[app] == 0 {
			order = append(order, app)
		}
		apps[app]++
	}
	if len(order) == 0 {
		return nil
	}
	if rng.IntN(3) == 0 {
		app := order[rng.IntN(len(order))]
		min := intstr.FromInt32(int32(max(apps[app]-1, 0)))
		c.pdbs = append(c.pdbs, &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "pdb-" + app, Namespace: "default"},
			Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &min, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}},
		})
		tags = append(tags, "pdb")
	}
	if rng.IntN(5) == 0 {
		app := order[rng.IntN(len(order))]
		for _, p := range c.sc.pods {
			if p.Labels["app"] == app {
				p.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
			}
		}
		tags = append(tags, "do-not-disrupt")
	}
	return tags
}

// scaledDown keeps each workload's first replicas: 30–70 % of them, at least one.
func scaledDown(rng *rand.Rand, pods []*corev1.Pod) []*corev1.Pod {
	count := map[string]int{}
	for _, p := range pods {
		count[p.Labels["app"]]++
	}
	// The draws go in app order: in map order the same seed would keep other pods in
	// another process.
	apps := make([]string, 0, len(count))
	for app := range count {
		apps = append(apps, app)
	}
	sort.Strings(apps)
	keep := map[string]int{}
	for _, app := range apps {
		keep[app] = max(1, count[app]*(30+rng.IntN(41))/100)
	}
	var out []*corev1.Pod
	seen := map[string]int{}
	for _, p := range pods {
		app := p.Labels["app"]
		if seen[app] < keep[app] {
			out = append(out, p)
		}
		seen[app]++
	}
	return out
}

// changedPools applies one edit to every pool, as a platform-wide change does: a template
// label (static drift), or the capacity type narrowed to on-demand or the instance families
// narrowed (requirements drift).
func changedPools(rng *rand.Rand, pools []*karpv1.NodePool, eks bool) []*karpv1.NodePool {
	edit := rng.IntN(3)
	out := make([]*karpv1.NodePool, len(pools))
	for i, p := range pools {
		np := p.DeepCopy()
		switch edit {
		case 0:
			if np.Spec.Template.Labels == nil {
				np.Spec.Template.Labels = map[string]string{}
			}
			np.Spec.Template.Labels["team"] = "platform"
		case 1:
			np.Spec.Template.Spec.Requirements = withRequirement(np.Spec.Template.Spec.Requirements, onDemand)
		default:
			family := req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E")
			if eks {
				family = req("karpenter.k8s.aws/instance-category", corev1.NodeSelectorOpIn, "m", "r")
			}
			np.Spec.Template.Spec.Requirements = withRequirement(np.Spec.Template.Spec.Requirements, family)
		}
		out[i] = np
	}
	return out
}

// withRequirement replaces the requirement on r's key, or adds it.
func withRequirement(reqs []karpv1.NodeSelectorRequirementWithMinValues, r karpv1.NodeSelectorRequirementWithMinValues) []karpv1.NodeSelectorRequirementWithMinValues {
	out := []karpv1.NodeSelectorRequirementWithMinValues{}
	for _, q := range reqs {
		if q.Key != r.Key {
			out = append(out, q)
		}
	}
	return append(out, r)
}

func ptrTo[T any](v T) *T { return &v }
