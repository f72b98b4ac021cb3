# The same pools on several AKS clusters from one provider configuration: every resource names
# its cluster in the `cluster` attribute, and one for_each over clusters × pools stamps them
# out. Each cluster's pools are checked against that cluster's region. Guide: "Multi-cluster
# fleets with the cluster attribute and for_each".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

locals {
  subscription = "/subscriptions/00000000-0000-0000-0000-000000000000"
  clusters = {
    weu = { id = "${local.subscription}/resourceGroups/rg-aks-weu/providers/Microsoft.ContainerService/managedClusters/aks-weu", region = "westeurope", scale = 2 }
    neu = { id = "${local.subscription}/resourceGroups/rg-aks-neu/providers/Microsoft.ContainerService/managedClusters/aks-neu", region = "northeurope", scale = 1 }
  }

  # Pool definitions shared by every cluster; cpu is the limit per unit of a cluster's scale.
  pools = {
    general = {
      weight   = 50
      families = ["D", "E"]
      capacity = ["spot", "on-demand"]
      cpu      = 100
      max_vcpu = 32 # the largest size; the smallest cluster's limit holds three of them (KRP119)
      taints   = []
    }
    batch = {
      weight   = 10
      families = ["F", "D"]
      capacity = ["spot", "on-demand"]
      cpu      = 32
      max_vcpu = 8
      taints   = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]
    }
  }

  # Every cluster × every pool, keyed "weu/general".
  fleet = {
    for pair in setproduct(keys(local.clusters), keys(local.pools)) :
    "${pair[0]}/${pair[1]}" => { cluster = pair[0], pool = pair[1] }
  }
}

# One provider configuration for the whole fleet. No kubernetes block: each resource's cluster
# attribute names its cluster, which the provider reaches through the Azure API with these
# credentials (the environment's here), once per cluster, on first use.
provider "karpenter" {}

resource "karpenter_aks_node_auto_provisioning" "nap" {
  for_each           = local.clusters
  cluster_id         = each.value.id
  default_node_pools = "None"
}

resource "karpenter_aksnodeclass" "standard" {
  for_each     = local.clusters
  name         = "standard"
  image_family = "AzureLinux"
  cluster = {
    # Through the NAP resource of the same cluster, so that the node class waits for its CRDs.
    aks_cluster_id = karpenter_aks_node_auto_provisioning.nap[each.key].cluster_id
    region         = each.value.region
    name           = each.key
  }
}

resource "karpenter_nodepool" "pool" {
  for_each = local.fleet

  name = each.value.pool
  cluster = {
    aks_cluster_id = local.clusters[each.value.cluster].id
    region         = local.clusters[each.value.cluster].region
    name           = each.value.cluster
  }
  weight = local.pools[each.value.pool].weight
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.standard[each.value.cluster].name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = local.pools[each.value.pool].capacity },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = local.pools[each.value.pool].families },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = [tostring(local.pools[each.value.pool].max_vcpu + 1)] },
    ]
    taints = local.pools[each.value.pool].taints
  }
  limits = { cpu = tostring(local.pools[each.value.pool].cpu * local.clusters[each.value.cluster].scale) }
}

output "pools" {
  description = "What each pool can launch in its cluster's region."
  value = {
    for key, p in karpenter_nodepool.pool :
    key => format("%d sizes in %s, from %s at %s %.4f/h", p.analysis.admissible_skus, p.analysis.scope, p.analysis.cheapest_sku, p.analysis.currency, p.analysis.cheapest_hourly_price)
  }
}
