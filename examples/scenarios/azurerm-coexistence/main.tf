# The cluster is managed with azurerm_kubernetes_cluster (in this configuration or another one);
# this provider switches it to NAP and manages the pools. Only one of the two may own the node
# provisioning mode. Guide: "Coexisting with azurerm_kubernetes_cluster".
#
# With azurerm in the same configuration, the cluster side reads:
#
#   resource "azurerm_kubernetes_cluster" "main" {
#     ...
#     network_profile {
#       network_plugin      = "azure"
#       network_plugin_mode = "overlay"
#       network_data_plane  = "cilium"
#       network_policy      = "cilium"
#     }
#     lifecycle {
#       # karpenter_aks_node_auto_provisioning owns nodeProvisioningProfile
#       ignore_changes = [node_provisioning_profile]
#     }
#   }
#
# Here terraform_data.cluster stands in for it, so that this example plans without azurerm and,
# like a cluster created in the same apply, has an ID that is known only after apply. Replace
# terraform_data.cluster.output with azurerm_kubernetes_cluster.main.id.

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

resource "terraform_data" "cluster" {
  input = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod"
}

provider "karpenter" {
  region = "westeurope"
  kubernetes = {
    # May be unknown until azurerm has created the cluster: plans of new karpenter resources do
    # not need the cluster, and the first apply connects once the ID is known.
    aks_cluster_id = terraform_data.cluster.output
  }
}

resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id         = terraform_data.cluster.output
  mode               = "Auto"
  default_node_pools = "None"
}

resource "karpenter_aksnodeclass" "default" {
  name         = "workloads"
  image_family = "AzureLinux"
  depends_on   = [karpenter_aks_node_auto_provisioning.this]
}

resource "karpenter_nodepool" "workloads" {
  name = "workloads"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] }, # the limits hold three of the largest (KRP119)
    ]
  }
  limits = { cpu = "200", memory = "800Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "5m"
  }
}
