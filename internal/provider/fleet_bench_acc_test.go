package provider_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The per-cluster connection pool under `terraform apply -parallelism=50`: FLEET_CLUSTERS
// aks_cluster_ids (default 50), all answered by ARM with the kubeconfig of the one local API
// server, × FLEET_POOLS NodePools each (default 5, named per cluster so that they do not
// collide there). Every cluster must be connected exactly once in the apply, however many of its
// resources start at once. Run with FLEET_BENCH=1 (docs-notes/benchmarks.md has the command);
// it prints the apply and destroy times. FLEET_BASELINE=1 applies the same objects to one cluster
// named by the provider's kubernetes.aks_cluster_id instead, without the cluster attribute.
func TestAccFleetApplyBenchmark(t *testing.T) {
	if os.Getenv("FLEET_BENCH") == "" {
		t.Skip("benchmark: set FLEET_BENCH=1")
	}
	bin := tfBinary(t)
	c := testenv.Get(t)
	clearConnectionEnv(t)
	clusters, pools := envInt("FLEET_CLUSTERS", 50), envInt("FLEET_POOLS", 5)
	kc := entraKubeconfig(t, c)
	names := map[string][]byte{}
	var ids strings.Builder
	for i := 1; i <= clusters; i++ {
		names[fmt.Sprintf("aks-%d", i)] = kc
		fmt.Fprintf(&ids, "    c%d = %q\n", i, clusterIDOf(fmt.Sprintf("aks-%d", i)))
	}
	f := newFakeFleet(names)
	d := newTFDir(t, bin).inProcess(f.option())
	baseline := os.Getenv("FLEET_BASELINE") != ""
	providerBlock, clusterAttr := `region = "westeurope"`, `cluster  = { aks_cluster_id = local.clusters[each.value.cluster], name = each.value.cluster }`
	if baseline {
		providerBlock += fmt.Sprintf("\n  kubernetes = { aks_cluster_id = %q }", clusterIDOf("aks-1"))
		clusterAttr = ""
	}
	d.write("main.tf", fmt.Sprintf(`
provider "karpenter" {
  %s
}

locals {
  clusters = {
%s  }
  fleet = { for x in setproduct(keys(local.clusters), range(%d)) : "${x[0]}/p${x[1]}" => { cluster = x[0], pool = "p${x[1]}" } }
}

resource "karpenter_nodepool" "p" {
  for_each = local.fleet
  name     = "${each.value.cluster}-${each.value.pool}"
  %s
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits = { cpu = "100" }
}
`, providerBlock, ids.String(), pools, clusterAttr))
	d.must("init", "-input=false")
	start := time.Now()
	d.must("apply", "-auto-approve", "-input=false", "-parallelism=50")
	apply := time.Since(start)
	calls := 0
	for n := range names {
		if got := f.called(n); got != 1 && !baseline {
			t.Errorf("cluster %s was connected %d times in one apply, want once", n, got)
		}
		calls += f.called(n)
	}
	start = time.Now()
	d.must("destroy", "-auto-approve", "-input=false", "-parallelism=50")
	destroy := time.Since(start)
	what := "the cluster attribute"
	if baseline {
		what = "baseline: the provider's own cluster"
	}
	t.Logf("apply -parallelism=50 of %d clusters x %d NodePools (one API server, %s): %.1fs, %d ARM credential requests; destroy %.1fs",
		clusters, pools, what, apply.Seconds(), calls, destroy.Seconds())
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
