package ec2nodeclass_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/runningnodes"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// impactConfig is an EC2NodeClass with the team tag given and a pool on it, under a provider
// with the checks block given.
func impactConfig(kubeconfig, checks, class, pool, team string) string {
	return fmt.Sprintf(`provider "karpenter" {
  kubernetes = { config_path = %q }
  %s
}

resource "karpenter_ec2nodeclass" "class" {
  name                          = %q
  role                          = "KarpenterNodeRole-acc"
  ami_selector_terms            = [{ alias = "al2023@v20240625" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  tags                          = { team = %q }
}

resource "karpenter_nodepool" "pool" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.class.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["m"] },
    ]
  }
  limits     = { cpu = "200", memory = "800Gi" }
  disruption = { consolidate_after = "1m", budgets = [{ nodes = "50%%" }] }
}
`, kubeconfig, checks, class, team, pool)
}

// Issue 29 item 3, for EKS: a change of an EC2NodeClass's tags drifts the nodes launched from
// it (the AWS provider's class hash covers them), reported on the attribute with the pool's
// pace; checks.cluster_impact = false turns it off. Strict mode makes the warning an error, so
// the plan's output can be matched.
func TestAccEC2NodeClassPlanWarnsOfDrift(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-ec2-impact", "acc-ec2-impact-pool"
	// KRP119: the limits let one round open few NodeClaims, beside the point here.
	strict := `checks = { strict = true, suppress = ["KRP119"] }`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, gvr, class),
		Steps: []resource.TestStep{
			{Config: impactConfig(c.KubeconfigPath, "", class, pool, "a")},
			{
				PreConfig: func() {
					runningnodes.Launch(t, c.Dynamic, runningnodes.Claims{
						Pool: pool, Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: class, InstanceType: "m5.xlarge",
						Labels: map[string]string{"karpenter.k8s.aws/instance-category": "m", "kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux"},
					}, 4)
				},
				Config:   impactConfig(c.KubeconfigPath, strict, class, pool, "b"),
				PlanOnly: true, ExpectNonEmptyPlan: true,
				ExpectError: runningnodes.DriftWarning("tags", "this change drifts 4 of 4 nodes of NodePool acc-ec2-impact-pool; budgets allow 2 at a time: about 2 replacement rounds"),
			},
			{
				Config:   impactConfig(c.KubeconfigPath, `checks = { strict = true, suppress = ["KRP119"], cluster_impact = false }`, class, pool, "b"),
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
		},
	})
}
