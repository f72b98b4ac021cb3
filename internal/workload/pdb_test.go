package workload

import (
	"fmt"
	"strings"
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

// The disruption controller's rules that counting every selected pod against every limit
// misses (found by the corpus of TestBudgetStatusMatchesDisruptionController):
//   - pods without a controller count as healthy but not as expected;
//   - pods whose controller has no scale subresource fail the sync under a scaled limit;
//   - an integer minAvailable counts DaemonSet pods, which depend on the nodes;
//   - a budget with neither limit expects no pod.
func TestBudgetStatusControllerRules(t *testing.T) {
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: %d, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: x}]}}}"
	const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, labels: {app: web}}\nspec: {containers: [{name: c, image: x}]}"
	const job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: batch}\nspec: {parallelism: %d, template: {metadata: {labels: {app: web}}, spec: {restartPolicy: Never, containers: [{name: c, image: x}]}}}"
	const daemons = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: x}]}}}"
	budget := func(limit string) string {
		return "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web}\nspec: {selector: {matchLabels: {app: web}}" + limit + "}"
	}
	cases := []struct {
		name string
		docs []string
		want Status // Why is not compared
	}{
		{"bare pods are not expected under maxUnavailable", []string{fmt.Sprintf(pod, "a"), fmt.Sprintf(pod, "b"), budget(", maxUnavailable: 1")},
			Status{CurrentHealthy: 2, Known: true}},
		{"bare pods count as healthy beside a Deployment", []string{fmt.Sprintf(deploy, 3), fmt.Sprintf(pod, "a"), budget(", maxUnavailable: 1")},
			Status{ExpectedPods: 3, DesiredHealthy: 2, CurrentHealthy: 4, DisruptionsAllowed: 2, Known: true}},
		{"a percentage minAvailable scales against the replicas only", []string{fmt.Sprintf(deploy, 2), fmt.Sprintf(pod, "a"), budget(", minAvailable: 50%")},
			Status{ExpectedPods: 2, DesiredHealthy: 1, CurrentHealthy: 3, DisruptionsAllowed: 2, Known: true}},
		{"an integer minAvailable counts bare pods", []string{fmt.Sprintf(pod, "a"), fmt.Sprintf(pod, "b"), budget(", minAvailable: 1")},
			Status{ExpectedPods: 2, DesiredHealthy: 1, CurrentHealthy: 2, DisruptionsAllowed: 1, Known: true}},
		{"a Job's pods fail a scaled limit", []string{fmt.Sprintf(job, 2), budget(", maxUnavailable: 1")},
			Status{SyncFails: true, Known: true}},
		{"an integer minAvailable counts a Job's pods", []string{fmt.Sprintf(job, 3), budget(", minAvailable: 1")},
			Status{ExpectedPods: 3, DesiredHealthy: 1, CurrentHealthy: 3, DisruptionsAllowed: 2, Known: true}},
		{"a DaemonSet's pods fail a scaled limit", []string{fmt.Sprintf(deploy, 3), daemons, budget(", maxUnavailable: 1")},
			Status{SyncFails: true, Known: true}},
		{"an integer minAvailable over a DaemonSet depends on the nodes", []string{fmt.Sprintf(deploy, 2), daemons, budget(", minAvailable: 2")},
			Status{}},
		{"neither limit allows no disruption", []string{fmt.Sprintf(deploy, 3), budget("")},
			Status{CurrentHealthy: 3, Known: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Read(docs(t, strings.Join(tc.docs, "\n---\n")), Options{})
			if len(s.Budgets) != 1 {
				t.Fatalf("budgets %d, findings %+v", len(s.Budgets), s.Findings)
			}
			got := s.BudgetStatus(s.Budgets[0])
			why := got.Why
			got.Why = ""
			if got != tc.want {
				t.Errorf("status %+v (%s), want %+v", got, why, tc.want)
			}
			if n, _, ok := s.AllowedDisruptions(s.Budgets[0]); ok != tc.want.Known || n != tc.want.DisruptionsAllowed {
				t.Errorf("AllowedDisruptions = %d, %v; want %d, %v", n, ok, tc.want.DisruptionsAllowed, tc.want.Known)
			}
		})
	}
}
