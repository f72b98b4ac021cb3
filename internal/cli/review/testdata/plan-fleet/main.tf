# A fleet from one provider configuration: each pool names its cluster in the `cluster`
# attribute. The review splits the plan by that cluster, as plan time scopes its checks: the
# spot-only pool of aks-eus gets no fallback from aks-weu's on-demand pool, and each cluster
# is checked in its own region.
terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

provider "karpenter" {
  region = "westeurope"
}

locals {
  rg = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters"
  pools = {
    weu = { id = "${local.rg}/aks-weu", region = "", capacity = "on-demand" }
    eus = { id = "${local.rg}/aks-eus", region = "eastus", capacity = "spot" }
  }
}

resource "karpenter_nodepool" "pool" {
  for_each = local.pools
  name     = "general"
  cluster  = { aks_cluster_id = each.value.id, region = each.value.region == "" ? null : each.value.region }
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = [each.value.capacity] },
    ]
  }
  limits = { cpu = "100" }
}
