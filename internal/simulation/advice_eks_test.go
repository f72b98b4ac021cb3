package simulation

import (
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// An EKS pool's advice edits use the AWS provider's labels: the vCPU cap is
// karpenter.k8s.aws/instance-cpu, and the restrictions widened are instance-family and
// instance-category; no karpenter.azure.com key appears.
func TestAdviceCandidatesOnEKS(t *testing.T) {
	p, err := analysis.PoolFromObject(map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "metadata": map[string]any{"name": "eks"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"nodeClassRef": map[string]any{"group": "karpenter.k8s.aws", "kind": "EC2NodeClass", "name": "default"},
			"requirements": []any{
				map[string]any{"key": "karpenter.sh/capacity-type", "operator": "In", "values": []any{"on-demand"}},
				map[string]any{"key": "karpenter.k8s.aws/instance-category", "operator": "In", "values": []any{"c", "m"}},
				map[string]any{"key": "karpenter.k8s.aws/instance-family", "operator": "NotIn", "values": []any{"t3"}},
			},
		}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range candidates(analysis.New(catalog.Default()).Clouds(), []simmodel.SimPool{{Pool: p}}) {
		got = append(got, c.edit.YAML())
	}
	want := []string{
		`- {key: karpenter.k8s.aws/instance-cpu, operator: Lt, values: ["9"]}`,
		`- {key: karpenter.k8s.aws/instance-cpu, operator: Lt, values: ["17"]}`,
		`- {key: karpenter.k8s.aws/instance-cpu, operator: Lt, values: ["33"]}`,
		`- {key: karpenter.k8s.aws/instance-cpu, operator: Lt, values: ["65"]}`,
		`- {key: karpenter.sh/capacity-type, operator: In, values: ["spot", "on-demand"]}`,
		`- {key: karpenter.k8s.aws/instance-category, operator: In, values: ["c", "m"]}`,
		`- {key: karpenter.k8s.aws/instance-family, operator: NotIn, values: ["t3"]}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("candidates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
