terraform {
  required_providers {
    karpenter = { source = "karpenter-iac/karpenter" }
  }
}

provider "karpenter" {
  region = "westeurope"
}

# Node Auto Provisioning off: the cluster runs self-hosted Karpenter, and AKS creates no
# `default` AKSNodeClass for it.
resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.ContainerService/managedClusters/aks"
  mode       = "Manual"
}

resource "karpenter_nodepool" "general" {
  name = "general"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  limits = { cpu = "100" }
}
