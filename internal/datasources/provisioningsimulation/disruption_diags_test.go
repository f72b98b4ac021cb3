package provisioningsimulation

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

const expiringPool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: apps}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
%s`

const guardedDB = `apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  replicas: 2
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, resources: {requests: {cpu: "1", memory: 2Gi}}}]`

const zeroBudget = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: db}
spec:
  maxUnavailable: 0
  selector: {matchLabels: {app: db}}`

// The data source reports KRP411 on the element of workloads_yaml that holds the blocking
// PodDisruptionBudget, for the pool Karpenter's prediction (the data source's default mode)
// puts the pods on; with a terminationGracePeriod it reports nothing.
func TestDisruptionDiags(t *testing.T) {
	s := analysis.New(catalog.Default())
	for _, tc := range []struct {
		name, spec string
		want       bool
	}{
		{"no terminationGracePeriod", "", true},
		{"terminationGracePeriod", "      terminationGracePeriod: 1h\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var diags diag.Diagnostics
			obj := manifest(context.Background(), strings.Replace(expiringPool, "%s", tc.spec, 1), kinds.NodePool.GVK, path.Root("nodepools").AtListIndex(0), &diags)
			p, err := analysis.PoolFromObject(obj)
			if err != nil || diags.HasError() {
				t.Fatal(err, diags)
			}
			pools := []simmodel.SimPool{{Pool: p}}
			set := manifestWorkloads([]string{guardedDB, zeroBudget}, 0, providerdata.Checks{}, &diags)
			sim, err := simulation.Predict(s, simulation.PredictionInput{Region: "westeurope", Pools: pools, Pods: set.Pods, WorkloadOf: simulation.WorkloadOf})
			if err != nil {
				t.Fatal(err)
			}
			before := len(diags)
			disruptionDiags(set, pools, sim, providerdata.Checks{}, &diags)
			got := diags[before:]
			if !tc.want {
				if len(got) != 0 {
					t.Fatalf("diagnostics %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Severity() != diag.SeverityWarning {
				t.Fatalf("diagnostics %v", got)
			}
			d, ok := got[0].(diag.DiagnosticWithPath)
			if !ok || !d.Path().Equal(path.Root("workloads_yaml").AtListIndex(1)) ||
				d.Summary() != "KRP411: Expired nodes of the pool can never finish draining: a PodDisruptionBudget allows no eviction and no terminationGracePeriod is set" ||
				!strings.HasPrefix(d.Detail(), "Attribute workloads_yaml[1]: workloads_yaml[1] line 5 (PodDisruptionBudget/db spec.maxUnavailable): NodePool/apps expires its nodes after 720h") {
				t.Errorf("diagnostic %v: %s", d, got[0].Detail())
			}
		})
	}
}
