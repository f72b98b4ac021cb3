# The same pools on several clusters: one provider configuration per cluster (an alias), one
# set of pool definitions, and for_each to stamp them out per cluster. Each cluster is checked
# against its own region. Guide: "Multi-cluster with provider aliases and for_each".

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
      taints   = []
    }
    batch = {
      weight   = 10
      families = ["F", "D"]
      capacity = ["spot", "on-demand"]
      cpu      = 32
      taints   = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]
    }
  }
}

# Provider configurations cannot be created with for_each in Terraform: one block per cluster.
provider "karpenter" {
  alias  = "weu"
  region = local.clusters.weu.region
  kubernetes = {
    aks_cluster_id = local.clusters.weu.id
  }
}

provider "karpenter" {
  alias  = "neu"
  region = local.clusters.neu.region
  kubernetes = {
    aks_cluster_id = local.clusters.neu.id
  }
}

# ---- westeurope ----

resource "karpenter_aks_node_auto_provisioning" "weu" {
  provider           = karpenter.weu
  cluster_id         = local.clusters.weu.id
  default_node_pools = "None"
}

resource "karpenter_aksnodeclass" "weu" {
  provider     = karpenter.weu
  name         = "standard"
  image_family = "AzureLinux"
  depends_on   = [karpenter_aks_node_auto_provisioning.weu]
}

resource "karpenter_nodepool" "weu" {
  provider = karpenter.weu
  for_each = local.pools

  name   = each.key
  weight = each.value.weight
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.weu.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = each.value.capacity },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = each.value.families },
    ]
    taints = each.value.taints
  }
  limits = { cpu = tostring(each.value.cpu * local.clusters.weu.scale) }
}

# ---- northeurope ----

resource "karpenter_aks_node_auto_provisioning" "neu" {
  provider           = karpenter.neu
  cluster_id         = local.clusters.neu.id
  default_node_pools = "None"
}

resource "karpenter_aksnodeclass" "neu" {
  provider     = karpenter.neu
  name         = "standard"
  image_family = "AzureLinux"
  depends_on   = [karpenter_aks_node_auto_provisioning.neu]
}

resource "karpenter_nodepool" "neu" {
  provider = karpenter.neu
  for_each = local.pools

  name   = each.key
  weight = each.value.weight
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.neu.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = each.value.capacity },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = each.value.families },
    ]
    taints = each.value.taints
  }
  limits = { cpu = tostring(each.value.cpu * local.clusters.neu.scale) }
}

output "pools" {
  description = "What each pool can launch in its cluster's region."
  value = {
    for key, p in merge(
      { for k, p in karpenter_nodepool.weu : "weu/${k}" => p },
      { for k, p in karpenter_nodepool.neu : "neu/${k}" => p },
    ) : key => format("%d sizes in %s, from %s at $%.4f/h", p.analysis.admissible_skus, p.analysis.scope, p.analysis.cheapest_sku, p.analysis.cheapest_hourly_price)
  }
}
