package ec2nodeclass_test

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The migration from kubectl_manifest: an EC2NodeClass that kubectl applied is imported with
// an import block, the plan matching it is empty, and the first apply takes kubectl's fields
// over, so that a field the configuration leaves out (userData here) is removed.
func TestAccEC2NodeClassAdoptFromKubectl(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-ec2-kubectl"
	existing := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.k8s.aws/v1", "kind": "EC2NodeClass",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"role":                       "KarpenterNodeRole-acc",
			"amiSelectorTerms":           []any{map[string]any{"alias": "al2023@v20240625"}},
			"subnetSelectorTerms":        []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "acc"}}},
			"securityGroupSelectorTerms": []any{map[string]any{"tags": map[string]any{"karpenter.sh/discovery": "acc"}}},
			"userData":                   "#!/bin/bash\necho legacy",
		},
	}}
	if _, err := c.Dynamic.Resource(gvr).Create(context.Background(), existing, metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatalf("create the kubectl node class: %v", err)
	}
	body := fmt.Sprintf(`
resource "karpenter_ec2nodeclass" "default" {
  name                          = %q
  role                          = "KarpenterNodeRole-acc"
  ami_selector_terms            = [{ alias = "al2023@v20240625" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  %%s
}
`, name)
	provider := acctest.ProviderBlock(c.KubeconfigPath)
	importBlock := fmt.Sprintf("\nimport {\n  to = karpenter_ec2nodeclass.default\n  id = %q\n}\n", name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, gvr, name),
		Steps: []resource.TestStep{
			{
				// As the object is: imported, nothing to change.
				Config: provider + importBlock + fmt.Sprintf(body, `user_data = "#!/bin/bash\necho legacy"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("karpenter_ec2nodeclass.default", plancheck.ResourceActionNoop),
				}},
			},
			{
				// user_data leaves the configuration: the provider, owner of kubectl's fields
				// after its first apply, removes it.
				Config: provider + fmt.Sprintf(body, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("karpenter_ec2nodeclass.default", plancheck.ResourceActionUpdate),
				}},
				Check: checkLive(c, gvr, name, []string{"spec", "userData"}, nil),
			},
		},
	})
}

// When Karpenter's finalizer holds the node class (NodeClaims launched from it), destroy waits
// up to timeouts.delete and names what holds it: the NodePools that reference this
// EC2NodeClass, not a pool that references an AKSNodeClass of the same name.
func TestAccEC2NodeClassDeleteTimeoutNamesWhatHoldsIt(t *testing.T) {
	c := testenv.Get(t)
	class, pool := "acc-ec2-held", "acc-ec2-held-pool"
	const finalizer = "karpenter-iac.test/hold"
	provider := acctest.ProviderBlock(c.KubeconfigPath)
	poolCfg := func(ref string) string {
		return fmt.Sprintf(`
resource "karpenter_nodepool" "pool" {
  name = %q
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = %s }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
}

resource "karpenter_nodepool" "aks" {
  name = "acc-ec2-held-aks-pool"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = %q }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  checks = { suppress = ["KRP201"] }
}
`, pool, ref, class)
	}
	classCfg := fmt.Sprintf(`
resource "karpenter_ec2nodeclass" "class" {
  name                          = %q
  role                          = "KarpenterNodeRole-acc"
  ami_selector_terms            = [{ alias = "al2023@v20240625" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "acc" } }]
  timeouts                      = { delete = "2s" }
}
`, class)
	setFinalizers := func(f ...string) {
		obj := live(t, c, class)
		obj.SetFinalizers(f)
		if _, err := c.Dynamic.Resource(gvr).Update(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("set finalizers %v: %v", f, err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, gvr, class),
		Steps: []resource.TestStep{
			{Config: provider + classCfg + poolCfg("karpenter_ec2nodeclass.class.name")},
			{
				PreConfig:   func() { setFinalizers(finalizer) },
				Config:      provider + poolCfg(fmt.Sprintf("%q", class)),
				ExpectError: regexp.MustCompile(`(?s)Timed out after 2s waiting for EC2NodeClass\s+"acc-ec2-held"\s+to\s+be\s+deleted.*karpenter-iac\.test/hold.*NodePools\s+that\s+reference\s+it:\s+acc-ec2-held-pool\.`),
			},
			{
				PreConfig: func() { setFinalizers() },
				Config:    provider + poolCfg(fmt.Sprintf("%q", class)),
				Check:     checkGone(c, gvr, class),
			},
		},
	})
}
