package nodepool_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// A pool for EKS (node_class_ref to an EC2NodeClass) is validated by the NodePool CRD an EKS
// cluster serves: a typo in a karpenter.k8s.aws key is rejected at plan, and the label
// agentpool, which only AKS's CRD restricts, is not. The same label on an AKS pool is still
// rejected. (Before, every pool was judged by AKS's CRD.)
func TestAccEKSPoolValidatedByEKSNodePoolCRD(t *testing.T) {
	cfg := func(group, kind, key, labels string) string {
		return fmt.Sprintf(`
resource "karpenter_nodepool" "p" {
  name = "eks"
  template = {
    node_class_ref = { group = %q, kind = %q, name = "default" }
    labels         = %s
    requirements   = [{ key = %q, operator = "Exists" }]
  }
  limits = { cpu = "100" }
}
`, group, kind, labels, key)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("karpenter.k8s.aws", "EC2NodeClass", "karpenter.k8s.aws/instance-categry", "{}"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)Attribute template\.requirements\[0\]\.key:.*label\s+domain\s+"karpenter\.k8s\.aws"\s+is\s+restricted`)},
			{Config: cfg("karpenter.k8s.aws", "EC2NodeClass", "karpenter.k8s.aws/instance-category", `{ agentpool = "general" }`), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: cfg("karpenter.azure.com", "AKSNodeClass", "karpenter.azure.com/sku-family", `{ agentpool = "general" }`), PlanOnly: true,
				ExpectError: regexp.MustCompile(`label\s+"agentpool"\s+is\s+restricted`)},
		},
	})
}
