package workload

import (
	"fmt"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

const budgetApp = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      containers: [{name: web, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: %s
kind: PodDisruptionBudget
metadata: {name: web, namespace: %s}
spec:
  %s
  %s`

// PodDisruptionBudgets are read with the disruption controller's arithmetic: which pods they
// select (namespace and selector; an empty selector selects the namespace) and how many
// evictions they allow with every pod healthy.
func TestBudgets(t *testing.T) {
	sel := "selector: {matchLabels: {app: web}}"
	cases := []struct {
		name                      string
		replicas                  int
		version, ns, limit, selec string
		selects                   bool
		allowed                   int
		code                      findings.Code
	}{
		{"maxUnavailable 0", 3, "policy/v1", "shop", "maxUnavailable: 0", sel, true, 0, ""},
		{"maxUnavailable 1", 3, "policy/v1", "shop", "maxUnavailable: 1", sel, true, 1, ""},
		{"maxUnavailable 10% rounds up", 3, "policy/v1", "shop", "maxUnavailable: 10%", sel, true, 1, ""},
		{"minAvailable as many as replicas", 2, "policy/v1", "shop", "minAvailable: 2", sel, true, 0, ""},
		{"minAvailable 50% rounds up", 3, "policy/v1", "shop", "minAvailable: 50%", sel, true, 1, ""},
		{"minAvailable 100%", 3, "policy/v1", "shop", "minAvailable: 100%", sel, true, 0, ""},
		{"empty selector selects the namespace", 2, "policy/v1", "shop", "maxUnavailable: 0", "selector: {}", true, 0, ""},
		{"no selector selects nothing", 2, "policy/v1", "shop", "maxUnavailable: 0", "", false, 0, ""},
		{"other labels", 2, "policy/v1", "shop", "maxUnavailable: 0", "selector: {matchLabels: {app: db}}", false, 0, ""},
		{"other namespace", 2, "policy/v1", "default", "maxUnavailable: 0", sel, false, 0, ""},
		{"policy/v1beta1 is not served", 2, "policy/v1beta1", "shop", "maxUnavailable: 0", sel, false, 0, findings.MalformedWorkload},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Read(docs(t, fmt.Sprintf(budgetApp, tc.replicas, tc.version, tc.ns, tc.limit, tc.selec)), Options{})
			if tc.code != "" {
				if len(s.Findings) != 1 || s.Findings[0].Code != tc.code || s.Findings[0].Path != "apiVersion" || len(s.Budgets) != 0 {
					t.Fatalf("findings %+v, budgets %d", s.Findings, len(s.Budgets))
				}
				return
			}
			if len(s.Findings) != 0 || len(s.Budgets) != 1 {
				t.Fatalf("findings %+v, budgets %d", s.Findings, len(s.Budgets))
			}
			got := s.BudgetsOf(s.Workloads[0])
			if (len(got) == 1) != tc.selects {
				t.Fatalf("selects = %v, want %v", len(got) == 1, tc.selects)
			}
			if !tc.selects {
				return
			}
			if n, why, ok := s.AllowedDisruptions(got[0]); !ok || n != tc.allowed {
				t.Errorf("allowed = %d (%s, %v), want %d", n, why, ok, tc.allowed)
			}
		})
	}
}
