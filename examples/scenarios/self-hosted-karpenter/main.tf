# Self-hosted Karpenter on AKS: NAP stays off (mode Manual), and this provider installs and
# upgrades the Karpenter CRDs it was built with, so that the NodePools below can be created in
# the same apply. Karpenter itself is installed with its Helm chart (see the guide).
# Guide: "Self-hosted Karpenter".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "cluster_id" {
  description = "Resource ID of the AKS cluster that runs Karpenter itself."
  type        = string
  default     = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-selfhosted"
}

provider "karpenter" {
  region = "westeurope"
  kubernetes = {
    aks_cluster_id = var.cluster_id
  }
}

resource "karpenter_aks_node_auto_provisioning" "this" {
  cluster_id    = var.cluster_id
  mode          = "Manual" # no NAP: the Karpenter you install runs the pools
  manage_crds   = true     # server-side apply NodePool, NodeClaim, NodeOverlay and AKSNodeClass CRDs
  wait_for_crds = true     # until they are Established
}

resource "karpenter_aksnodeclass" "default" {
  name         = "default"
  image_family = "Ubuntu2404"
  depends_on   = [karpenter_aks_node_auto_provisioning.this]
}

resource "karpenter_nodepool" "general" {
  name = "general"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["17"] },
    ]
  }
  limits = { cpu = "100", memory = "400Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "2m"
  }
}
