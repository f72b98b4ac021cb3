package review

import (
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
)

const spotPools = `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
spec: {imageFamily: AzureLinux}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: spot}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
        - {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["1"]}
  limits: {cpu: "100"}
`

// The solver's findings reach the review at the YAML line of the field, with the provider's
// codes; the pools of one cluster are judged together (spot without an on-demand fallback).
func TestProvisioningFindingsInReview(t *testing.T) {
	out := runJSON(t, spotPools, ExitFindings, "--region", "westeurope", "-")
	sameLines(t, out.brief(), []string{
		"stdin:14:59 KRP110 NodePool/spot spec.template.spec.requirements[0].values",
		"stdin:13:7 KRP101 NodePool/spot spec.template.spec.requirements",
	})
	for _, f := range out.Findings {
		if f.Code == "KRP101" && !strings.Contains(f.Message, "karpenter.azure.com/sku-cpu Lt [1]") {
			t.Errorf("KRP101 does not name the requirement that excludes everything: %s", f.Message)
		}
	}
}

// A pool Karpenter can serve gets the solver's summary: cheapest size and price, largest node,
// and the cost of running at the CPU limit; an on-demand pool is the spot pool's fallback.
func TestProvisioningSummaryInReview(t *testing.T) {
	withFallback := strings.Replace(spotPools, `values: ["1"]`, `values: ["9"]`, 1) + `---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: fallback}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
        - {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["33"]}
  limits: {cpu: "100"}
`
	out := runJSON(t, withFallback, ExitClean, "--region", "westeurope", "-")
	if len(out.Findings) != 0 {
		t.Fatalf("findings %v", out.brief())
	}
	for _, p := range out.Pools {
		if p.Name != "spot" {
			continue
		}
		for _, name := range []string{"checked against", "admissible SKUs", "cheapest", "largest node", "monthly cost at the limits"} {
			if !hasFactNamed(p.Facts, name) {
				t.Errorf("spot pool summary lacks %q: %+v", name, p.Facts)
			}
		}
		return
	}
	t.Fatal("spot pool missing from the summary")
}

func hasFactNamed(facts []checks.Fact, name string) bool {
	for _, f := range facts {
		if f.Name == name {
			return true
		}
	}
	return false
}

// A pool that allows both capacity types shows the cheapest spot and on-demand
// offerings, their provenance, and that Karpenter launches spot; a pool whose
// limits cannot hold one node, or that has none, shows no cost at the limits.
func TestProvisioningSpotAndOnDemandFacts(t *testing.T) {
	in := `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
spec: {imageFamily: AzureLinux}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: mixed}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [Standard_D2s_v5, Standard_D4s_v5]}
  limits: {cpu: "100"}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: tiny}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [Standard_D4s_v5]}
  limits: {nvidia.com/gpu: "2"}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: small}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [Standard_D4s_v5]}
  limits: {cpu: "2"}
`
	out := runJSON(t, in, ExitFindings, "--region", "westeurope", "--suppress", "KRP102,KRP103", "-")
	facts := map[string]map[string]string{}
	for _, p := range out.Pools {
		facts[p.Name] = map[string]string{}
		for _, f := range p.Facts {
			facts[p.Name][f.Name] = f.Value
		}
	}
	mixed := facts["mixed"]
	for name, want := range map[string]string{
		"cheapest":           "Standard_D2s_v5, spot, USD 0.021252/h (price source P1)",
		"cheapest spot":      "Standard_D2s_v5, USD 0.021252/h (price source P1)",
		"cheapest on-demand": "Standard_D2s_v5, USD 0.115/h (price source P2)",
		"Karpenter launches": "spot (the Azure provider ranks offerings by price, then spot before on-demand)",
	} {
		if mixed[name] != want {
			t.Errorf("mixed pool fact %q = %q, want %q", name, mixed[name], want)
		}
	}
	if !strings.HasPrefix(mixed["monthly cost at the limits"], "USD ") || !strings.Contains(mixed["monthly cost at the limits"], "spot USD ") {
		t.Errorf("mixed pool cost at the limits: %q", mixed["monthly cost at the limits"])
	}
	for _, name := range []string{"tiny", "small"} {
		if v, ok := facts[name]["monthly cost at the limits"]; ok {
			t.Errorf("pool %s: no limit binds a node it can launch, yet the cost at the limits is %q", name, v)
		}
	}
}

// A lone on-demand pool gets the spot savings note; the same pool as the
// fallback of a spot pool does not (TestProvisioningSummaryInReview). Both are capped at 32
// vCPU, so that their limits hold three NodeClaims of any size (no KRP119).
func TestSpotSavingsNoteInReview(t *testing.T) {
	in := `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
spec: {imageFamily: AzureLinux}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: steady}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
        - {key: karpenter.azure.com/sku-cpu, operator: Lt, values: ["33"]}
  limits: {cpu: "100"}
`
	out := runJSON(t, in, ExitClean, "--region", "westeurope", "-")
	sameLines(t, out.brief(), []string{"stdin:14:59 KRP117 NodePool/steady spec.template.spec.requirements[0].values"})
}

// KRP110 and taints: pods of a tainted spot pool tolerate into an untainted on-demand pool,
// and a PreferNoSchedule taint on the on-demand pool keeps no pod off it, so both have a
// fallback; a NoSchedule taint the spot pool lacks does keep its pods off.
func TestSpotFallbackTaints(t *testing.T) {
	pools := func(spotTaint, fallbackTaint string) string {
		return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: spot}
spec:
  weight: 50
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      taints: [` + spotTaint + `]
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
  limits: {cpu: "100"}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ondemand}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      taints: [` + fallbackTaint + `]
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
  limits: {cpu: "100"}
`
	}
	const spotTaint = "{key: kubernetes.azure.com/scalesetpriority, value: spot, effect: NoSchedule}"
	for _, tc := range []struct {
		name, spot, fallback string
		want                 bool
	}{
		{"tainted spot, untainted on-demand", spotTaint, "", false},
		{"on-demand prefers not to schedule", "", "{key: cost, value: high, effect: PreferNoSchedule}", false},
		{"on-demand taint the spot pods lack", spotTaint, "{key: dedicated, value: db, effect: NoSchedule}", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := runJSON(t, pools(tc.spot, tc.fallback), ExitClean, "--region", "westeurope", "-")
			got := len(briefOf(out, "KRP110")) > 0
			if got != tc.want {
				t.Errorf("KRP110 reported %v, want %v: %v", got, tc.want, out.brief())
			}
		})
	}
}
