package disruption

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	upstream "sigs.k8s.io/karpenter/pkg/utils/pdb"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// The PDB limits decide as Karpenter's pkg/utils/pdb does, given the same statuses: which
// pods of a node a PDB blocks (CanEvictPods, for candidates) and which pods are currently
// reschedulable (fully blocking PDBs, multiple PDBs, unhealthy-pod policy, do-not-disrupt).
func TestPDBLimitsMatchUpstream(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	clk := clocktesting.NewFakeClock(time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC))
	scheme := runtime.NewScheme()
	_ = corev1.AddToScheme(scheme)
	_ = policyv1.AddToScheme(scheme)
	limitsOf := []func() *intstr.IntOrString{
		func() *intstr.IntOrString { v := intstr.FromInt32(int32(r.IntN(3))); return &v },
		func() *intstr.IntOrString { v := intstr.FromString([]string{"0%", "50%", "100%"}[r.IntN(3)]); return &v },
	}
	blockedCases := 0
	for c := range 200 {
		var pods []*corev1.Pod
		apps := []string{"a", "b", "c"}
		for i := range 2 + r.IntN(6) {
			p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p%d", i), Namespace: "default", Labels: map[string]string{"app": apps[r.IntN(3)]}}}
			if r.IntN(6) == 0 {
				p.Annotations = map[string]string{karpv1.DoNotDisruptAnnotationKey: "true"}
			}
			if r.IntN(5) == 0 {
				p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
			}
			pods = append(pods, p)
		}
		cl := &Cluster{Nodes: []*Node{{ExistingNode: karpenter.ExistingNode{Name: "n", Pods: pods}}}}
		objs := []runtime.Object{}
		for i := range 1 + r.IntN(3) {
			pdb := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pdb%d", i), Namespace: "default"},
				Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": apps[r.IntN(3)]}}}}
			if r.IntN(2) == 0 {
				pdb.Spec.MinAvailable = limitsOf[r.IntN(2)]()
			} else {
				pdb.Spec.MaxUnavailable = limitsOf[r.IntN(2)]()
			}
			if r.IntN(3) == 0 {
				always := policyv1.AlwaysAllow
				pdb.Spec.UnhealthyPodEvictionPolicy = &always
			}
			cl.PDBs = append(cl.PDBs, pdb)
		}
		mine := newLimits(cl)
		for i, pdb := range cl.PDBs {
			withStatus := pdb.DeepCopy()
			withStatus.Status.DisruptionsAllowed = mine[i].disruptionsAllowed
			objs = append(objs, withStatus)
		}
		theirs, err := upstream.NewLimits(context.Background(), fake.NewClientBuilder().WithScheme(scheme).WithRuntimeObjects(objs...).Build())
		if err != nil {
			t.Fatal(err)
		}
		_, gotOK := mine.canEvictPods(pods, clk)
		_, wantOK := theirs.CanEvictPods(pods, clk, nil)
		if !wantOK {
			blockedCases++
		}
		if gotOK != wantOK {
			t.Fatalf("case %d: CanEvictPods %v, upstream %v", c, gotOK, wantOK)
		}
		for _, p := range pods {
			if got, want := mine.isCurrentlyReschedulable(p, clk), theirs.IsCurrentlyReschedulable(p, clk, nil); got != want {
				t.Fatalf("case %d pod %s: IsCurrentlyReschedulable %v, upstream %v", c, p.Name, got, want)
			}
		}
	}
	if blockedCases < 20 || blockedCases > 180 {
		t.Errorf("%d of 200 cases blocked: the corpus does not exercise both verdicts", blockedCases)
	}
}
