package provisioningsimulation

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// limitedPool is a D-family pool with cpu=200: its largest sizes (192 vCPU) let a round open
// one NodeClaim of any size. extra adds a requirement.
func limitedPool(name, extra string) string {
	return fmt.Sprintf(`apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: %s}
spec:
  limits: {cpu: "200"}
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
%s`, name, extra)
}

// KRP119 is reported on the nodepools element whose limits hold fewer than three of its
// largest NodeClaims, not on a pool capped to sizes the limits hold three of, and not when
// the provider suppresses the code or turns the checks off.
func TestReservationDiags(t *testing.T) {
	s := analysis.New(catalog.Default())
	var diags diag.Diagnostics
	var pools []simmodel.SimPool
	var at []path.Path
	for i, text := range []string{
		limitedPool("capped", "        - {key: karpenter.azure.com/sku-cpu, operator: Lt, values: [\"33\"]}\n"),
		limitedPool("wide", ""),
	} {
		at = append(at, path.Root("nodepools").AtListIndex(i))
		p, err := analysis.PoolFromObject(manifest(context.Background(), text, kinds.NodePool.GVK, at[i], &diags))
		if err != nil || diags.HasError() {
			t.Fatal(err, diags)
		}
		pools = append(pools, simmodel.SimPool{Pool: p})
	}
	reservationDiags(s, "westeurope", pools, at, providerdata.Checks{}, &diags)
	if len(diags) != 1 {
		t.Fatalf("diagnostics %v, want one KRP119 on nodepools[1]", diags)
	}
	d, ok := diags[0].(diag.DiagnosticWithPath)
	if !ok || !d.Path().Equal(path.Root("nodepools").AtListIndex(1)) || !strings.HasPrefix(d.Summary(), "KRP119") ||
		!strings.Contains(d.Detail(), "NodePool/wide spec.limits: Karpenter charges each new NodeClaim") {
		t.Errorf("diagnostic %v", diags[0])
	}
	for _, checks := range []providerdata.Checks{{Suppress: []findings.Code{findings.LimitsReservation}}, {Disabled: true}} {
		var none diag.Diagnostics
		reservationDiags(s, "westeurope", pools, at, checks, &none)
		if len(none) != 0 {
			t.Errorf("checks %+v: %v", checks, none)
		}
	}
}
