package simulation

import (
	"context"
	"strings"
	"testing"

	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// KRP420 when the budgets let every drifted node go at once, KRP421 when none can go or their
// drains never end; neither for a paced drift.
func TestDriftFindings(t *testing.T) {
	for _, tc := range []struct {
		name, budgets string
		pdbAllows     int32
		want          []findings.Code
		path          string
	}{
		{name: "paced", budgets: "[{nodes: '3'}]", pdbAllows: 1},
		{name: "all at once", budgets: "[{nodes: '100%'}]", pdbAllows: 1, want: []findings.Code{findings.DriftAllAtOnce}, path: budgetsPath},
		{name: "drift off", budgets: "[{nodes: '0', reasons: [Drifted]}]", pdbAllows: 1, want: []findings.Code{findings.DriftNeverReplaced}, path: budgetsPath},
		{name: "blocking budget", budgets: "[{nodes: '3'}]", want: []findings.Code{findings.DriftNeverReplaced}, path: "spec.template.spec.terminationGracePeriod"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			snap := impactCluster(10)
			b := &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}
			b.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
			b.Status.DisruptionsAllowed = tc.pdbAllows
			snap.PDBs = append(snap.PDBs, b)
			res, err := Drift(context.Background(), testSolver, snap, Input{Region: "westeurope", NodePools: []map[string]any{body(t, strings.Replace(impactPool, "BUDGETS", tc.budgets, 1))}})
			if err != nil {
				t.Fatal(err)
			}
			got := DriftFindings(res.Impact(snap, impactStart))
			if len(got) != len(tc.want) {
				t.Fatalf("findings %v, want %v", got, tc.want)
			}
			for i, f := range got {
				if f.Code != tc.want[i] || f.Path != tc.path || f.Object != "NodePool/general" || !strings.Contains(f.Message, "10 of the pool's 10 nodes") && !strings.Contains(f.Message, "10 drifted nodes") {
					t.Errorf("finding %+v, want %s on %s of NodePool/general", f, tc.want[i], tc.path)
				}
			}
		})
	}
}
