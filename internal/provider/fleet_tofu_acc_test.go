package provider_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// OpenTofu (1.9+) can create provider configurations with for_each, which Terraform cannot:
// one provider block, one instance per cluster, and resources choosing theirs by key. OpenTofu
// starts a provider process per instance, so this runs the provider as its users do: built from
// this checkout and installed through dev_overrides, each instance reaching its own local API
// server through a kubeconfig.
func TestAccFleetOpenTofuProviderForEach(t *testing.T) {
	bin := tofuBinary(t) // provider for_each is OpenTofu's (1.9+)
	a := testenv.Get(t)
	b := secondCluster(t)
	clearConnectionEnv(t)
	d := newTFDir(t, bin)
	providerDir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(providerDir, "terraform-provider-karpenter"), ".")
	build.Dir = filepath.Join("..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", "karpenter-iac/karpenter", providerDir)
	d.write("cli.tfrc", rc)
	bKubeconfig := b.KubeconfigPath
	t.Cleanup(func() {
		if out, errOut, code := d.run("destroy", "-auto-approve", "-input=false"); code != 0 {
			t.Errorf("destroy: exit %d\n%s\n%s", code, out, errOut)
		}
		objectsIn(t, a, "a")
		objectsIn(t, b, "b")
	})
	cfg := func(size, regionB string) string {
		return fmt.Sprintf(`
terraform {
  required_providers {
    karpenter = { source = "karpenter-iac/karpenter" }
  }
}

locals {
  clusters = {
    a = { kubeconfig = %q, region = "westeurope" }
    b = { kubeconfig = %q, region = %q }
  }
  pools = {
    general = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
    pinned  = [{ key = "node.kubernetes.io/instance-type", operator = "In", values = [%q] }]
  }
  fleet = { for p in setproduct(keys(local.clusters), keys(local.pools)) : "${p[0]}/${p[1]}" => { cluster = p[0], pool = p[1] } }
}

provider "karpenter" {
  alias      = "cluster"
  for_each   = local.clusters
  region     = each.value.region
  kubernetes = { config_path = each.value.kubeconfig }
}

resource "karpenter_nodepool" "p" {
  for_each = local.fleet
  provider = karpenter.cluster[each.value.cluster]
  name     = each.value.pool
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = local.pools[each.value.pool]
  }
  limits = { cpu = "100" }
  checks = { suppress = ["KRP102"] }
}
`, a.KubeconfigPath, bKubeconfig, regionB, size)
	}
	size := sizeOnlyIn(t, []string{"westeurope", "northeurope"}, "southindia")

	// Each instance checks against its own region: the pinned size fits nothing in southindia,
	// so only b's pinned pool fails the plan.
	d.write("main.tf", cfg(size, "southindia"))
	out, errOut, code := d.run("plan", "-input=false")
	if code == 0 || !regexp.MustCompile(`(?s)KRP101.*`+regexp.QuoteMeta(`karpenter_nodepool.p["b/pinned"]`)).MatchString(errOut) ||
		strings.Count(errOut, "Error: KRP101") != 1 {
		t.Errorf("plan with b in southindia: exit %d, want KRP101 on b/pinned only\n%s\n%s", code, out, errOut)
	}

	d.write("main.tf", cfg(size, "northeurope"))
	d.must("apply", "-auto-approve", "-input=false", "-parallelism=50")
	objectsIn(t, a, "a", "general", "pinned")
	objectsIn(t, b, "b", "general", "pinned")
	if got := d.planActions(); len(got) != 0 {
		t.Errorf("second plan is not empty: %v", got)
	}
}
