package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// fleetClusters renders the clusters of a fleet as a Terraform map: key → id and region.
func fleetClusters(regions map[string]string) string {
	var b strings.Builder
	keys := make([]string, 0, len(regions))
	for k := range regions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "    %s = { id = %q, region = %q }\n", k, clusterIDOf("aks-"+k), regions[k])
	}
	return b.String()
}

// fleetPlanConfig is one provider block and one for_each over clusters × pools, each pool
// naming its cluster in the cluster attribute. No kubernetes block, no credentials: a plan.
// The pool "pinned" asks for one size only.
func fleetPlanConfig(providerRegion, size string, regions map[string]string) string {
	return fmt.Sprintf(`
provider "karpenter" {
  region = %q
}

locals {
  clusters = {
%s  }
  pools = {
    general = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
    pinned  = [{ key = "node.kubernetes.io/instance-type", operator = "In", values = [%q] }]
  }
  fleet = { for p in setproduct(keys(local.clusters), keys(local.pools)) : "${p[0]}/${p[1]}" => { cluster = p[0], pool = p[1] } }
}

resource "karpenter_nodepool" "p" {
  for_each = local.fleet
  name     = each.value.pool
  cluster = {
    aks_cluster_id = local.clusters[each.value.cluster].id
    region         = local.clusters[each.value.cluster].region
    name           = each.value.cluster
  }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = local.pools[each.value.pool]
  }
  limits = { cpu = "100" }
  checks = { suppress = ["KRP102"] }
}
`, providerRegion, fleetClusters(regions), size)
}

// sizeOnlyIn is a size the catalog offers in every region of in and in none of out.
func sizeOnlyIn(t *testing.T, in []string, out string) string {
	t.Helper()
	cat := catalog.Default()
	count := map[string]int{}
	for _, r := range in {
		for _, it := range aks.List(cat, r, aks.NodeClass{}, aks.Cluster{}).InstanceTypes {
			count[it.Name]++
		}
	}
	for _, it := range aks.List(cat, out, aks.NodeClass{}, aks.Cluster{}).InstanceTypes {
		delete(count, it.Name)
	}
	var sizes []string
	for n, c := range count {
		if c == len(in) {
			sizes = append(sizes, n)
		}
	}
	if len(sizes) == 0 {
		t.Skipf("the catalog has no size offered in %v but not in %s", in, out)
	}
	sort.Strings(sizes)
	return sizes[0]
}

// expectCreates checks that the plan creates exactly the given karpenter_nodepool instances.
type expectCreates []string

func (want expectCreates) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	var got []string
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Type == "karpenter_nodepool" && rc.Change.Actions.Create() {
			got = append(got, fmt.Sprint(rc.Index))
		}
	}
	sort.Strings(got)
	if strings.Join(got, ",") != strings.Join(want, ",") {
		resp.Error = fmt.Errorf("plan creates karpenter_nodepool %v, want %v", got, want)
	}
}

// Done-when of issue 16: an offline plan with one provider block and for_each over 3 clusters
// × 2 pools plans 6 pools, each checked against its own cluster's region. A size offered in
// westeurope and northeurope but not in southindia fits nothing only on the southindia pool
// (KRP101 there); the provider's own region, southindia too, is overridden by each cluster's.
func TestAccFleetPlanChecksEachClusterInItsRegion(t *testing.T) {
	size := sizeOnlyIn(t, []string{"westeurope", "northeurope"}, "southindia")
	good := map[string]string{"weu": "westeurope", "neu": "northeurope", "sin": "westeurope"}
	bad := map[string]string{"weu": "westeurope", "neu": "northeurope", "sin": "southindia"}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				// Six pools, all fine in their regions (the provider's region would reject the pinned ones).
				Config: fleetPlanConfig("southindia", size, good), PlanOnly: true, ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					expectCreates{"neu/general", "neu/pinned", "sin/general", "sin/pinned", "weu/general", "weu/pinned"},
				}},
			},
			{
				Config: fleetPlanConfig("westeurope", size, bad), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP101.*` + regexp.QuoteMeta(`karpenter_nodepool.p["sin/pinned"]`)),
			},
		},
	})
}

// Plan-time checks across resources are per cluster: the node class planned in cluster a does
// not vouch for a pool of cluster b that references the same name (KRP201 there, an error in
// strict mode), while a's pool is content.
func TestAccFleetNodeClassOfAnotherClusterDoesNotCount(t *testing.T) {
	cfg := func(poolClusters ...string) string {
		return fmt.Sprintf(`
provider "karpenter" {
  checks = { strict = true }
}

locals {
  clusters = {
%s  }
}

resource "karpenter_aksnodeclass" "nc" {
  name    = "standard"
  cluster = { aks_cluster_id = local.clusters.a.id }
}

resource "karpenter_nodepool" "p" {
  for_each = toset(%s)
  name     = "general"
  cluster  = { aks_cluster_id = local.clusters[each.key].id, region = local.clusters[each.key].region }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "standard" }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] }, # no KRP119 in strict mode
    ]
  }
  limits     = { cpu = "100" }
  depends_on = [karpenter_aksnodeclass.nc]
}
`, fleetClusters(map[string]string{"a": "westeurope", "b": "westeurope"}), "[\""+strings.Join(poolClusters, "\", \"")+"\"]")
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg("a"), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: cfg("a", "b"), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP201.*` + regexp.QuoteMeta(`karpenter_nodepool.p["b"]`) + `.*"standard"`)},
		},
	})
}

// An aks_cluster_id that is no AKS resource ID is an error on cluster.aks_cluster_id at plan,
// naming the value and the expected form.
func TestAccFleetClusterIDIsValidated(t *testing.T) {
	cfg := `
resource "karpenter_aksnodeclass" "nc" {
  name    = "standard"
  cluster = { aks_cluster_id = "/subscriptions/11111111-2222-3333-4444-555555555555/resourceGroups/rg-aks" }
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{Config: cfg, PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)Invalid AKS cluster ID.*cluster\.aks_cluster_id\s+=\s+"/subscriptions/.*managedClusters`)}},
	})
}

// Clusters created in the same run have IDs known only after apply: their pools are planned
// (strict mode, no false KRP201 for the node class planned with them), the connection waits
// for the apply.
func TestAccFleetClusterIDKnownAfterApply(t *testing.T) {
	cfg := fmt.Sprintf(`
provider "karpenter" {
  region = "westeurope"
  checks = { strict = true }
}

resource "terraform_data" "cluster" {
  for_each = toset(["a", "b"])
  input    = %q
}

resource "karpenter_aksnodeclass" "nc" {
  for_each = terraform_data.cluster
  name     = "standard"
  cluster  = { aks_cluster_id = each.value.output }
}

resource "karpenter_nodepool" "p" {
  for_each = terraform_data.cluster
  name     = "general"
  cluster  = { aks_cluster_id = each.value.output, name = each.key }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.nc[each.key].name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] }, # no KRP119 in strict mode
    ]
  }
  limits = { cpu = "100" }
}
`, clusterIDOf("aks-later"))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps:                    []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true}},
	})
}
