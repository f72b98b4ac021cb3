terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

locals {
  # With azurerm: azurerm_kubernetes_cluster.main.id and azurerm_subnet.nodes.id.
  cluster_id     = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod"
  node_subnet_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/nodes"
}

provider "karpenter" {
  kubernetes = {
    aks_cluster_id = local.cluster_id # the CRD wait reaches the cluster through Azure
  }
}

# Enable AKS Node Auto Provisioning on an existing cluster, grant its identity Network Contributor
# on the node subnet, and wait for the Karpenter CRDs before the pools below are created.
resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id                 = local.cluster_id
  mode                       = "Auto"
  default_node_pools         = "None" # only the NodePools declared below
  network_contributor_scopes = [local.node_subnet_id]

  timeouts = {
    create = "45m"
  }
}

resource "karpenter_aksnodeclass" "default" {
  name           = "default"
  image_family   = "AzureLinux"
  vnet_subnet_id = local.node_subnet_id
  depends_on     = [karpenter_aks_node_auto_provisioning.this]
}

resource "karpenter_nodepool" "general" {
  name = "general"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements   = [{ key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] }]
  }
  depends_on = [karpenter_aks_node_auto_provisioning.this]
}

# When azurerm_kubernetes_cluster sets node_provisioning_profile as well (required from azurerm 5.0),
# keep both in agreement, or let this resource own the mode and have azurerm ignore it:
#
# resource "azurerm_kubernetes_cluster" "main" {
#   ...
#   lifecycle {
#     ignore_changes = [node_provisioning_profile]
#   }
# }
