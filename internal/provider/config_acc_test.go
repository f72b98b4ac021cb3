package provider_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

const planNodePool = `
resource "karpenter_nodepool" "plan" {
  name = "plan-only"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
}
`

// Configuration errors reach the user through the real terraform binary as diagnostics on the
// provider block that name the offending attribute (for nested attributes Terraform prints the
// block's line only, so the attribute must be in the message; the exact attribute path of
// each diagnostic is asserted in TestProviderConfigDiagnostics).
func TestAccProviderConfigErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-kubeconfig")
	onProvider := `.*with provider\["registry.terraform.io/hashicorp/karpenter"\].*`
	cases := []struct {
		name, attrs string
		want        string
	}{
		{"aks_cluster_id with config_path", fmt.Sprintf("aks_cluster_id = %q\n    config_path = %q", validClusterID, missing),
			`Error: Invalid Attribute Combination` + onProvider + `Attribute "kubernetes.aks_cluster_id" cannot be specified when\s+"kubernetes.config_path" is specified`},
		{"aks_cluster_id with host", fmt.Sprintf("aks_cluster_id = %q\n    host = \"https://aks.example:443\"", validClusterID),
			`Error: Invalid Attribute Combination` + onProvider + `Attribute "kubernetes.aks_cluster_id" cannot be specified when\s+"kubernetes.host" is specified`},
		{"aks_cluster_id with exec", fmt.Sprintf("aks_cluster_id = %q\n    exec = { api_version = \"client.authentication.k8s.io/v1beta1\", command = \"kubelogin\" }", validClusterID),
			`Error: Invalid Attribute Combination` + onProvider + `Attribute "kubernetes.exec" cannot be specified when\s+"kubernetes.aks_cluster_id" is specified`},
		{"cluster ID of a virtual machine", `aks_cluster_id = "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm1"`,
			`Error: Invalid AKS cluster ID` + onProvider + `kubernetes.aks_cluster_id\s+=\s+".*virtualMachines/vm1":\s+resource\s+type\s+is\s+Microsoft.Compute/virtualMachines`},
		{"cluster ID that is a name", `aks_cluster_id = "aks-prod"`,
			`Error: Invalid AKS cluster ID` + onProvider + `kubernetes.aks_cluster_id\s+=\s+"aks-prod":\s+not\s+an\s+Azure\s+resource\s+ID`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clearConnectionEnv(t)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      fmt.Sprintf("provider \"karpenter\" {\n  kubernetes = {\n    %s\n  }\n}\n", tc.attrs) + planNodePool,
					PlanOnly:    true,
					ExpectError: regexp.MustCompile(`(?s)` + tc.want),
				}},
			})
		})
	}
}

// Issue 31 item 8: a provider region no catalog knows is one error, on the provider's region
// attribute, with the nearest region, and no pool reports KRP114 (before: KRP114 on each pool,
// without a suggestion, offering to suppress it).
func TestAccProviderRegionTypoIsOneError(t *testing.T) {
	clearConnectionEnv(t)
	cfg := "provider \"karpenter\" {\n  region = \"westeurop\"\n}\n"
	for _, name := range []string{"a", "b", "c"} {
		cfg += strings.Replace(strings.Replace(planNodePool, `"plan"`, `"`+name+`"`, 1), "plan-only", "plan-"+name, 1)
	}
	// Go's regular expressions have no negative look-ahead: this one matches a whole output
	// without "KRP114" in it.
	withoutKRP114 := `\A(?:[^K]|K(?:[^R]|\z)|KR(?:[^P]|\z)|KRP(?:[^1]|\z)|KRP1(?:[^1]|\z)|KRP11(?:[^4]|\z))*\z`
	for _, want := range []string{
		`(?s)Error: Unknown region.*in provider "karpenter":\s+\d+:\s+region = "westeurop".*did you mean\s+westeurope\?`,
		withoutKRP114,
	} {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: regexp.MustCompile(want)}},
		})
	}
}

// A kubeconfig path that does not exist (yet) does not fail a plan with nothing in state,
// which needs no cluster; the apply that does fails naming the file and the attribute.
func TestAccPlanWithMissingKubeconfig(t *testing.T) {
	clearConnectionEnv(t)
	missing := filepath.Join(t.TempDir(), "no-such-kubeconfig")
	cfg := fmt.Sprintf("provider \"karpenter\" {\n  kubernetes = { config_path = %q }\n}\n", missing) + planNodePool
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true},
			{
				Config:      cfg,
				ExpectError: regexp.MustCompile(`(?s)Cannot connect to the Kubernetes cluster.*no-such-kubeconfig\s+\(from\s+kubernetes.config_path\)\s+cannot\s+be\s+read.*no\s+such\s+file\s+or\s+directory.*Point\s+kubernetes.config_path`),
			},
		},
	})
}

// With no kubernetes block, no kubeconfig and no Azure credentials anywhere, a plan of new
// resources succeeds: it needs no cluster and makes no request.
func TestAccPlanWithoutConnectionOrCredentials(t *testing.T) {
	clearConnectionEnv(t)
	// Neither a default kubeconfig nor an Azure CLI login may be found.
	t.Setenv("HOME", t.TempDir())
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: planNodePool, PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: "provider \"karpenter\" {}\n" + planNodePool, PlanOnly: true, ExpectNonEmptyPlan: true},
			{
				// Applying the same configuration is where a cluster is needed, and its
				// absence is explained, not a crash.
				Config:      planNodePool,
				ExpectError: regexp.MustCompile(`(?s)Cannot connect to the Kubernetes cluster.*no Kubernetes connection is\s+configured`),
			},
		},
	})
}

// A cluster created in the same run makes the connection unknown at plan time; the plan of
// resources on it must still succeed, and make no ARM request.
func TestAccPlanWithUnknownConnection(t *testing.T) {
	clearConnectionEnv(t)
	f := newFakeAKS(nil, nil)
	for name, attrs := range map[string]string{
		"aks_cluster_id":   `kubernetes = { aks_cluster_id = terraform_data.cluster.output }`,
		"kubernetes block": `kubernetes = terraform_data.connection.output`,
		"exec argument":    `kubernetes = { host = "https://aks.example:443", exec = { api_version = "client.authentication.k8s.io/v1beta1", command = "kubelogin", args = ["get-token", "--server-id", terraform_data.cluster.output] } }`,
	} {
		t.Run(name, func(t *testing.T) {
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(f.option()),
				Steps: []resource.TestStep{{
					Config: fmt.Sprintf(`
resource "terraform_data" "cluster" { input = %q }
resource "terraform_data" "connection" { input = { aks_cluster_id = %q } }
provider "karpenter" {
  %s
}
`, validClusterID, validClusterID, attrs) + planNodePool,
					PlanOnly:           true,
					ExpectNonEmptyPlan: true,
				}},
			})
		})
	}
	if user, admin := f.calls(); user+admin > 0 {
		t.Errorf("plans with an unknown connection made %d ARM requests", user+admin)
	}
}
