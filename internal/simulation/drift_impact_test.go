package simulation

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/scheme"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	pdbutils "sigs.k8s.io/karpenter/pkg/utils/pdb"
	podutils "sigs.k8s.io/karpenter/pkg/utils/pod"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
)

var impactStart = time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC) // a Monday

// The block a node's pods put on its drain is the one Karpenter's ValidatePodsDisruptable
// finds (its do-not-disrupt check and its PodDisruptionBudget limits, run here on the same
// pods and budgets), on a seeded corpus.
func TestPodsBlockEvictionMatchesKarpenter(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	blocked := 0
	for i := range 300 {
		pods, pdbs := randomNode(r, i)
		ours := podsBlockEviction(pods, pdbs, impactStart) != ""

		var objs []client.Object
		for _, b := range pdbs {
			objs = append(objs, b.DeepCopy())
		}
		kube := fake.NewClientBuilder().WithScheme(scheme.Scheme).WithObjects(objs...).Build()
		limits, err := pdbutils.NewLimits(context.Background(), kube)
		if err != nil {
			t.Fatal(err)
		}
		clk := clocktesting.NewFakeClock(impactStart)
		theirs := false
		for _, p := range pods {
			if !podutils.IsDisruptable(p, clk, nil) {
				theirs = true
			}
		}
		if _, ok := limits.CanEvictPods(pods, clk, nil); !ok {
			theirs = true
		}
		if ours != theirs {
			t.Errorf("case %d: we say blocked=%v (%q), Karpenter %v", i, ours, podsBlockEviction(pods, pdbs, impactStart), theirs)
		}
		if theirs {
			blocked++
		}
	}
	if blocked < 60 || blocked > 240 {
		t.Errorf("%d of 300 nodes blocked: the corpus should reach both verdicts often", blocked)
	}
}

// randomNode draws the pods of one node and the budgets of their namespaces.
func randomNode(r *rand.Rand, i int) ([]*corev1.Pod, []*policyv1.PodDisruptionBudget) {
	apps := []string{"web", "api", "batch"}
	var pods []*corev1.Pod
	for j := range 1 + r.IntN(4) {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("p%d-%d", i, j), Namespace: pick(r, []string{"shop", "ops"}),
			Labels: map[string]string{"app": pick(r, apps)},
		}}
		p.Status.Phase = pick(r, []corev1.PodPhase{corev1.PodRunning, corev1.PodRunning, corev1.PodRunning, corev1.PodSucceeded})
		start := metav1.NewTime(impactStart.Add(-time.Duration(r.IntN(120)) * time.Minute))
		p.Status.StartTime = &start
		switch r.IntN(8) {
		case 0:
			p.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
		case 1:
			p.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "1h"}
		case 2:
			p.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "bogus"}
		}
		if r.IntN(6) == 0 {
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", UID: "u"}}
		}
		if r.IntN(4) == 0 {
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
		}
		pods = append(pods, p)
	}
	var pdbs []*policyv1.PodDisruptionBudget
	for j := range r.IntN(4) {
		b := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("b%d-%d", i, j), Namespace: pick(r, []string{"shop", "ops"})}}
		b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": pick(r, apps)}}
		one := intstr.FromInt32(1)
		b.Spec.MaxUnavailable = &one
		b.Status.DisruptionsAllowed = int32(r.IntN(2))
		if r.IntN(3) == 0 {
			policy := policyv1.AlwaysAllow
			b.Spec.UnhealthyPodEvictionPolicy = &policy
		}
		pdbs = append(pdbs, b)
	}
	return pods, pdbs
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

const impactPool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
      - {key: karpenter.azure.com/sku-family, operator: In, values: [E]}
  disruption:
    consolidateAfter: 5m
    budgets: BUDGETS
`

// impactCluster holds n launched NodeClaims of family D in pool general, one pod each.
func impactCluster(n int) *clusterstate.Snapshot {
	snap := &clusterstate.Snapshot{}
	for i := range n {
		name := fmt.Sprintf("general-%d", i)
		c := &karpv1.NodeClaim{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			karpv1.NodePoolLabelKey: "general", "karpenter.azure.com/sku-family": "D",
			corev1.LabelInstanceTypeStable: "Standard_D4s_v5", corev1.LabelTopologyZone: "westeurope-1", karpv1.CapacityTypeLabelKey: "on-demand",
		}}}
		c.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
		c.Status.NodeName = "aks-" + name
		c.StatusConditions().SetTrue(karpv1.ConditionTypeLaunched)
		snap.NodeClaims = append(snap.NodeClaims, c)
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-" + name, Namespace: "shop", Labels: map[string]string{"app": "web"}}}
		p.Spec.NodeName = c.Status.NodeName
		p.Status.Phase = corev1.PodRunning
		snap.Pods = append(snap.Pods, p)
	}
	return snap
}

// A family change on ten nodes: the pace and blocks the budgets and budgets of pods give.
func TestDriftImpact(t *testing.T) {
	s := analysis.New(catalog.Default())
	for _, tc := range []struct {
		name, budgets          string
		pdbAllows              int32
		now, most, rounds      int
		allAtOnce, blockedGood bool
	}{
		{name: "default 10%", budgets: "[{nodes: '10%'}]", pdbAllows: 1, now: 1, most: 1, rounds: 10},
		{name: "three at a time", budgets: "[{nodes: '3'}]", pdbAllows: 1, now: 3, most: 3, rounds: 4},
		{name: "all at once", budgets: "[{nodes: '100%'}]", pdbAllows: 1, now: 10, most: 10, rounds: 1, allAtOnce: true},
		{name: "drift off", budgets: "[{nodes: '0', reasons: [Drifted]}]", pdbAllows: 1},
		{name: "window on weekdays 02:00 UTC", budgets: "[{nodes: '0', schedule: '0 4 * * *', duration: 22h}, {nodes: '5'}]", pdbAllows: 1, now: 0, most: 5, rounds: 2},
		{name: "blocking budget", budgets: "[{nodes: '10%'}]", pdbAllows: 0, now: 1, most: 1, rounds: 10, blockedGood: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := impactCluster(10)
			b := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}
			b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
			b.Status.DisruptionsAllowed = tc.pdbAllows
			snap.PDBs = append(snap.PDBs, b)
			res, err := Drift(context.Background(), s, snap, Input{Region: "westeurope", NodePools: []map[string]any{body(t, strings.Replace(impactPool, "BUDGETS", tc.budgets, 1))}})
			if err != nil {
				t.Fatal(err)
			}
			impact := res.Impact(snap, impactStart)
			if len(impact) != 1 {
				t.Fatalf("impact %+v, want one pool", impact)
			}
			pd := impact[0]
			if pd.Nodes != 10 || pd.Drifted != 10 || pd.NowAtOnce != tc.now || pd.AtOnce != tc.most || pd.Rounds != tc.rounds || pd.AllAtOnce() != tc.allAtOnce {
				t.Errorf("got %d of %d drifted, %d now, %d at most, %d rounds, all at once %v; want 10 of 10, %d, %d, %d, %v",
					pd.Drifted, pd.Nodes, pd.NowAtOnce, pd.AtOnce, pd.Rounds, pd.AllAtOnce(), tc.now, tc.most, tc.rounds, tc.allAtOnce)
			}
			if got := len(pd.Blocked) == 10 && pd.Blocked[0].ForGood; got != tc.blockedGood {
				t.Errorf("blocked %+v, want every node blocked for good: %v", pd.Blocked, tc.blockedGood)
			}
		})
	}
}

// A NodeClaim without a nodeClassRef (a hand-edited snapshot) is judged on its pool alone.
func TestDriftOfNodeClaimWithoutNodeClass(t *testing.T) {
	snap := impactCluster(1)
	snap.NodeClaims[0].Spec.NodeClassRef = nil
	res, err := Drift(context.Background(), analysis.New(catalog.Default()), snap, Input{Region: "westeurope", NodePools: []map[string]any{body(t, strings.Replace(impactPool, "BUDGETS", "[{nodes: '1'}]", 1))}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Drifted) != 1 || res.Drifted[0].Reason != "RequirementsDrifted" {
		t.Errorf("drifted %+v, want the family change to drift it", res.Drifted)
	}
}
