package review

import (
	"strings"
	"testing"
)

// reservationPools: general's 200 vCPU hold one of its largest D/E sizes (192 vCPU), so a
// provisioning round opens one NodeClaim of any size (KRP119); capped at 64 vCPU its limits
// would hold three.
const reservationPools = `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
spec: {imageFamily: AzureLinux}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [spot, on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D, E]}
  limits:
    cpu: "200"
`

// KRP119 reaches the review at the line of spec.limits, in JSON and text, with the size, the
// NodeClaims per round and the cap; --strict makes it an error, --suppress drops it.
func TestReservationInReview(t *testing.T) {
	out := runJSON(t, reservationPools, ExitClean, "--region", "westeurope", "-")
	sameLines(t, out.brief(), []string{"stdin:16:3 KRP119 NodePool/general spec.limits"})
	f := out.Findings[0]
	if f.Severity != "warning" || !strings.Contains(f.Message, "Standard_D192s_v6 with 192 vCPU, against cpu=200") ||
		!strings.Contains(f.Message, "only 1 new NodeClaim that may become any admissible size") ||
		!strings.Contains(f.Fix, "require karpenter.azure.com/sku-cpu Lt 65") || !strings.Contains(f.Fix, "raise the limits to cpu=576") {
		t.Errorf("KRP119 %s: %s / %s", f.Severity, f.Message, f.Fix)
	}

	text := run(t, reservationPools, "--region", "westeurope", "--color", "never", "-")
	for _, want := range []string{
		"stdin:16:3: warning KRP119 NodePool/general: Karpenter charges each new NodeClaim against the limits with the largest capacity",
		"\n    field spec.limits\n",
		"\n    fix: require karpenter.azure.com/sku-cpu Lt 65 (sizes with karpenter.azure.com/sku-cpu ≤ 64: 3 NodeClaims per round)",
	} {
		if !strings.Contains(text.stdout, want) {
			t.Errorf("text report lacks %q:\n%s", want, text.stdout)
		}
	}

	if r := run(t, reservationPools, "--region", "westeurope", "--strict", "-"); r.code != ExitFindings || !strings.Contains(r.stdout, "error KRP119") {
		t.Errorf("--strict: exit %d\n%s", r.code, r.stdout)
	}
	if out := runJSON(t, reservationPools, ExitClean, "--region", "westeurope", "--fail-on", "warning", "--suppress", "KRP119", "-"); len(out.Findings) != 0 || out.Suppressed != 1 {
		t.Errorf("--suppress KRP119: findings %v, %d suppressed", out.brief(), out.Suppressed)
	}

	capped := strings.Replace(reservationPools, "values: [D, E]}", "values: [D, E]}\n        - {key: karpenter.azure.com/sku-cpu, operator: Lt, values: [\"65\"]}", 1)
	if out := runJSON(t, capped, ExitClean, "--region", "westeurope", "-"); len(out.Findings) != 0 {
		t.Errorf("with the suggested cap: %v", out.brief())
	}
}
