package functions_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/reftest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// upstreamExample returns the path of an upstream example manifest in reference/examples
// (stored plain: Terraform's file() reads it).
func upstreamExample(t *testing.T, name string) string {
	return reftest.Dir(t, "examples", name)
}

// Upstream's own example NodePool (a multi-document file with comments) becomes the
// karpenter_nodepool attributes.
func TestAccNodePoolFromYAML(t *testing.T) {
	file := upstreamExample(t, "examples_v1_general-purpose.yaml")
	out := func(p tfjsonpath.Path) tfjsonpath.Path { return p }
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: `output "pool" { value = provider::karpenter::nodepool_from_yaml(file("` + file + `")) }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValueAtPath("pool", out(tfjsonpath.New("name")), knownvalue.StringExact("general-purpose")),
				statecheck.ExpectKnownOutputValueAtPath("pool", tfjsonpath.New("disruption").AtMapKey("budgets").AtSliceIndex(0).AtMapKey("nodes"), knownvalue.StringExact("30%")),
				statecheck.ExpectKnownOutputValueAtPath("pool", tfjsonpath.New("template").AtMapKey("labels").AtMapKey("kubernetes.azure.com/ebpf-dataplane"), knownvalue.StringExact("cilium")),
				statecheck.ExpectKnownOutputValueAtPath("pool", tfjsonpath.New("template").AtMapKey("startup_taints").AtSliceIndex(0).AtMapKey("effect"), knownvalue.StringExact("NoExecute")),
				statecheck.ExpectKnownOutputValueAtPath("pool", tfjsonpath.New("template").AtMapKey("node_class_ref").AtMapKey("name"), knownvalue.StringExact("default")),
				statecheck.ExpectKnownOutputValueAtPath("pool", tfjsonpath.New("limits"), knownvalue.Null()),
			},
		}},
	})
}

// The function's output feeds the resource directly: the plan shows the same pool.
func TestAccNodePoolFromYAMLFeedsResource(t *testing.T) {
	file := upstreamExample(t, "test_pkg_environment_azure_default_nodepool.yaml")
	cfg := `
locals { pool = provider::karpenter::nodepool_from_yaml(file("` + file + `")) }

resource "karpenter_nodepool" "p" {
  name       = local.pool.name
  weight     = local.pool.weight
  template   = local.pool.template
  limits     = local.pool.limits
  disruption = local.pool.disruption
  replicas   = local.pool.replicas
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true}},
	})
}

func TestAccFromYAMLRejectsBadManifests(t *testing.T) {
	cases := map[string]struct{ yaml, want string }{
		"invalid operator": {`apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: x}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements: [{key: kubernetes.io/arch, operator: Sometimes, values: [amd64]}]`, `(?s)would\s+reject.*operator:\s+Unsupported\s+value:\s+"Sometimes"`},
		"wrong kind": {`apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: x}`, `(?s)holds no karpenter\.sh/v1\s+NodePool.*AKSNodeClass`},
		"not yaml": {`{{{`, `(?s)not\s+valid\s+YAML`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			f := filepath.Join(dir, "m.yaml")
			if err := os.WriteFile(f, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      `output "pool" { value = provider::karpenter::nodepool_from_yaml(file("` + f + `")) }`,
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

func TestAccAKSNodeClassFromYAML(t *testing.T) {
	file := upstreamExample(t, "test_pkg_environment_azure_default_aksnodeclass.yaml")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: `output "nc" { value = provider::karpenter::aksnodeclass_from_yaml(file("` + file + `")) }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValueAtPath("nc", tfjsonpath.New("name"), knownvalue.NotNull()),
			},
		}},
	})
}

// The getting-started EC2NodeClass manifest becomes the karpenter_ec2nodeclass attributes.
func TestAccEC2NodeClassFromYAML(t *testing.T) {
	file, _ := filepath.Abs(filepath.Join("..", "..", "examples", "functions", "ec2nodeclass_from_yaml", "nodeclasses", "default.yaml"))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: `output "nc" { value = provider::karpenter::ec2nodeclass_from_yaml(file("` + file + `")) }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValueAtPath("nc", tfjsonpath.New("name"), knownvalue.StringExact("default")),
				statecheck.ExpectKnownOutputValueAtPath("nc", tfjsonpath.New("role"), knownvalue.StringExact("KarpenterNodeRole-my-cluster")),
				statecheck.ExpectKnownOutputValueAtPath("nc", tfjsonpath.New("ami_selector_terms").AtSliceIndex(0).AtMapKey("alias"), knownvalue.StringExact("al2023@v20240625")),
				statecheck.ExpectKnownOutputValueAtPath("nc", tfjsonpath.New("subnet_selector_terms").AtSliceIndex(0).AtMapKey("tags").AtMapKey("karpenter.sh/discovery"), knownvalue.StringExact("my-cluster")),
			},
		}},
	})
	// A manifest the CRD rejects fails the function, as for the other kinds.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: x}\nspec:\n  role: r\n  instanceProfile: p\n  amiSelectorTerms: [{alias: al2023@latest}]\n  subnetSelectorTerms: [{id: subnet-0123abcd}]\n  securityGroupSelectorTerms: [{id: sg-0123abcd}]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      `output "nc" { value = provider::karpenter::ec2nodeclass_from_yaml(file("` + bad + `")) }`,
			ExpectError: regexp.MustCompile(`(?s)must\s+specify\s+exactly\s+one\s+of`),
		}},
	})
}
