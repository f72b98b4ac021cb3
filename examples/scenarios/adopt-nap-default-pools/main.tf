# Adopt the objects AKS Node Auto Provisioning creates with default_node_pools = "Auto" (the
# `default` and `system-surge` NodePools and the `default` AKSNodeClass) so that Terraform
# reviews and changes them. Guide: "Adopting NAP's default pools".
#
# The attributes below are the shape NAP gives these objects. Yours may differ with the AKS
# version: before the first apply, generate the configuration of the live objects with
#   terraform plan -var adopt_existing=true -generate-config-out=generated.tf
# (with these resource blocks removed) and start from that.

terraform {
  required_version = ">= 1.7" # import blocks with for_each
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "cluster_id" {
  description = "Resource ID of the AKS cluster that runs NAP."
  type        = string
  default     = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-aks/providers/Microsoft.ContainerService/managedClusters/aks-prod"
}

variable "adopt_existing" {
  description = "Import the objects NAP created. Set it to true for the adoption run; it has no effect once they are in the state."
  type        = bool
  default     = false
}

provider "karpenter" {
  region = "westeurope"
  kubernetes = {
    aks_cluster_id = var.cluster_id
  }
}

import {
  for_each = var.adopt_existing ? toset(["default"]) : toset([])
  to       = karpenter_aksnodeclass.default
  id       = each.key
}

import {
  for_each = var.adopt_existing ? toset(["default"]) : toset([])
  to       = karpenter_nodepool.default
  id       = each.key
}

import {
  for_each = var.adopt_existing ? toset(["system-surge"]) : toset([])
  to       = karpenter_nodepool.system_surge
  id       = each.key
}

resource "karpenter_aksnodeclass" "default" {
  name            = "default"
  image_family    = "Ubuntu"
  os_disk_size_gb = 128
}

# NAP's general-purpose pool, as created, plus what adopting it is for: limits (KRP104 warns
# about a pool without them), a disruption budget below NAP's 100% (KRP406: with 100% an image
# rollout may replace every node at once) and a wider choice of families.
resource "karpenter_nodepool" "default" {
  name = "default"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    expire_after   = "Never"
    requirements = [
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
      { key = "kubernetes.io/os", operator = "In", values = ["linux"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] }, # NAP: ["D"]
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },        # NAP: none; the limits hold four of the largest (KRP119)
    ]
  }
  limits = { cpu = "256", memory = "1Ti" } # NAP: none
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "0s"
    budgets              = [{ nodes = "20%" }] # NAP: 100%
  }
}

# Surge capacity for system pods (CriticalAddonsOnly) while the system agent pool scales.
resource "karpenter_nodepool" "system_surge" {
  name = "system-surge"
  template = {
    labels = {
      "kubernetes.azure.com/mode"           = "system"
      "kubernetes.azure.com/ebpf-dataplane" = "cilium"
    }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    expire_after   = "Never"
    requirements = [
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
      { key = "kubernetes.io/os", operator = "In", values = ["linux"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["17"] }, # NAP: none; four of the largest per round (KRP119)
    ]
    startup_taints = [{ key = "node.cilium.io/agent-not-ready", value = "true", effect = "NoExecute" }]
    taints         = [{ key = "CriticalAddonsOnly", value = "true", effect = "NoSchedule" }]
  }
  limits = { cpu = "64" } # NAP: none
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "0s"
    budgets              = [{ nodes = "30%" }]
  }
}
