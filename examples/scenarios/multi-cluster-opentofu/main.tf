# OpenTofu 1.9+ only: the fleet of examples/scenarios/multi-cluster with one provider instance
# per cluster, created with for_each on the provider block, instead of the cluster attribute.
# Each instance has its own connection and region; resources choose theirs by key. Guide:
# "Multi-cluster fleets with the cluster attribute and for_each".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

locals {
  subscription = "/subscriptions/00000000-0000-0000-0000-000000000000"
  # The provider instances: every cluster, also one being retired (active = false), since
  # OpenTofu destroys a cluster's resources through its provider instance, which must therefore
  # outlive them by one apply.
  clusters = {
    weu = { id = "${local.subscription}/resourceGroups/rg-aks-weu/providers/Microsoft.ContainerService/managedClusters/aks-weu", region = "westeurope", active = true }
    neu = { id = "${local.subscription}/resourceGroups/rg-aks-neu/providers/Microsoft.ContainerService/managedClusters/aks-neu", region = "northeurope", active = true }
  }
  active = { for k, c in local.clusters : k => c if c.active }
  pools = {
    general = { weight = 50, families = ["D", "E"] }
    batch   = { weight = 10, families = ["F", "D"] }
  }
  fleet = {
    for pair in setproduct(keys(local.active), keys(local.pools)) :
    "${pair[0]}/${pair[1]}" => { cluster = pair[0], pool = pair[1] }
  }
}

provider "karpenter" {
  alias      = "cluster"
  for_each   = local.clusters
  region     = each.value.region
  kubernetes = { aks_cluster_id = each.value.id }
}

resource "karpenter_aksnodeclass" "standard" {
  for_each     = local.active
  provider     = karpenter.cluster[each.key]
  name         = "standard"
  image_family = "AzureLinux"
}

resource "karpenter_nodepool" "pool" {
  for_each = local.fleet
  provider = karpenter.cluster[each.value.cluster]

  name   = each.value.pool
  weight = local.pools[each.value.pool].weight
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.standard[each.value.cluster].name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = local.pools[each.value.pool].families },
    ]
  }
  limits = { cpu = "100" }
}
