package review

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
)

const disruptionPools = `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
spec: {imageFamily: AzureLinux}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: frozen}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements: []
  disruption:
    consolidateAfter: 5m
    consolidationPolicy: Balanced
    budgets:
      - nodes: "0"
  limits: {cpu: "100"}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: window}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements: []
  disruption:
    consolidateAfter: 5m
    consolidationPolicy: WhenEmpty
    budgets:
      - nodes: "10%"
      - nodes: "0"
        schedule: "0 6 * * *"
        duration: 22h
  limits: {cpu: "100"}
`

// disruptionLines are the KRP4xx findings of a review, in the tests' brief form.
func disruptionLines(o jsonOut) []string {
	var out []string
	for _, l := range o.brief() {
		if strings.Contains(l, " KRP4") {
			out = append(out, l)
		}
	}
	return out
}

// The disruption checks reach the review at the YAML line of the field, as the provider's plan
// reports them; the maintenance-window pool stays clean. An absent expireAfter is the CRD's
// 720h, not Never, so no KRP407 for pools that leave it out.
func TestDisruptionFindingsInReview(t *testing.T) {
	out := runJSON(t, disruptionPools, ExitClean, "--region", "westeurope", "-")
	sameLines(t, disruptionLines(out), []string{
		"stdin:18:9 KRP401 NodePool/frozen spec.disruption.budgets[0].nodes",
	})
}

// The target Karpenter comes from .karpenter-review.yaml: Balanced is reported against 1.13,
// per cluster, and suppress silences the codes as for any other finding.
func TestDisruptionTargetFromConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("old/pools.yaml", disruptionPools)
	write("new/pools.yaml", disruptionPools)
	write(".karpenter-review.yaml", "region: westeurope\nkarpenterVersion: \"1.13.2\"\nclusters:\n"+
		"  - {name: old, paths: [\"old/**\"]}\n"+
		"  - {name: new, paths: [\"new/**\"], karpenterVersion: \"1.14.2\", suppress: [KRP401]}\n")
	out := runJSON(t, "", ExitClean, dir)
	var got []string
	for _, l := range disruptionLines(out) {
		got = append(got, l[strings.Index(l, " ")+1:]) // without the temporary path
	}
	sort.Strings(got)
	sameLines(t, got, []string{
		"KRP401 NodePool/frozen spec.disruption.budgets[0].nodes [old]",
		"KRP408 NodePool/frozen spec.disruption.consolidationPolicy [old]",
	})
	for _, f := range out.Findings {
		if f.Code == "KRP408" && !strings.Contains(f.Message, "Karpenter 1.13.2") {
			t.Errorf("KRP408 does not name the target: %s", f.Message)
		}
	}
}

func TestDisruptionTargetConfigErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"karpenterVersion: latest\n", `karpenter version "latest"`},
		{"featureGates: StaticCapacty=true\n", `feature gate "StaticCapacty" is unknown`},
		{"clusters:\n  - {name: a, paths: [x], featureGates: \"StaticCapacity=maybe\"}\n", "cluster a: karpenterVersion/featureGates"},
	} {
		p := filepath.Join(t.TempDir(), ".karpenter-review.yaml")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := config.LoadConfig(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one mentioning %q", tc.text, err, tc.want)
		}
	}
}

const overlay = `apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: {name: discount}
spec:
  requirements:
    - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
  priceAdjustment: "-10%"
`

// A NodeOverlay is reported when the target runs without the NodeOverlay gate (the default),
// and not once featureGates turns it on; it is schema-checked like the other kinds.
func TestNodeOverlayNeedsItsGate(t *testing.T) {
	out := runJSON(t, overlay, ExitClean, "--region", "westeurope", "-")
	sameLines(t, out.brief(), []string{"stdin:2:1 KRP408 NodeOverlay/discount kind"})

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "overlay.yaml"), []byte(overlay), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".karpenter-review.yaml"), []byte("featureGates: NodeOverlay=true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := runJSON(t, "", ExitClean, dir); len(out.Findings) != 0 {
		t.Errorf("with the gate on: %v", out.brief())
	}

	bad := strings.Replace(overlay, `priceAdjustment: "-10%"`, `priceAdjustment: "cheap"`, 1)
	out = runJSON(t, bad, ExitFindings, "--region", "westeurope", "-")
	if !slices.ContainsFunc(out.brief(), func(l string) bool { return strings.Contains(l, "KRP001 NodeOverlay/discount") }) {
		t.Errorf("a NodeOverlay the API server rejects is not reported: %v", out.brief())
	}
}
