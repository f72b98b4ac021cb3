# Move NodePools and AKSNodeClasses from kubectl_manifest or kubernetes_manifest to typed
# resources without deleting or recreating them (which would drain their nodes). The YAML files
# the old resources applied stay the source of truth and are read with the provider's functions.
# Guide: "Migrating from kubernetes_manifest or kubectl_manifest".
#
# The configuration this replaces was, for example:
#
#   resource "kubectl_manifest" "nodepool" {
#     for_each  = fileset(path.module, "manifests/nodepool-*.yaml")
#     yaml_body = file("${path.module}/${each.value}")
#   }
#
# or, with the kubernetes provider, `kubernetes_manifest` with manifest = yamldecode(file(...)).

terraform {
  required_version = ">= 1.8" # provider functions; import and removed blocks with for_each need 1.7
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "kubeconfig_path" {
  description = "Kubeconfig of the cluster; on AKS, kubernetes.aks_cluster_id works without one."
  type        = string
  default     = null
}

variable "adopt_existing" {
  description = "Import the objects the old resources created instead of creating them. Set it to true for the migration run; it has no effect on objects already in the state."
  type        = bool
  default     = false
}

provider "karpenter" {
  region = "westeurope"
  kubernetes = {
    config_path = var.kubeconfig_path
  }
}

locals {
  dir = "${path.module}/manifests"
  node_classes = {
    for f in fileset(local.dir, "aksnodeclass-*.yaml") :
    trimsuffix(trimprefix(f, "aksnodeclass-"), ".yaml") => provider::karpenter::aksnodeclass_from_yaml(file("${local.dir}/${f}"))
  }
  node_pools = {
    for f in fileset(local.dir, "nodepool-*.yaml") :
    trimsuffix(trimprefix(f, "nodepool-"), ".yaml") => provider::karpenter::nodepool_from_yaml(file("${local.dir}/${f}"))
  }
}

# 1. Forget the old resources without deleting the objects in the cluster. Keep the block for
#    the resource type you used (having both does no harm).
removed {
  from = kubectl_manifest.nodepool
  lifecycle {
    destroy = false
  }
}

removed {
  from = kubernetes_manifest.nodepool
  lifecycle {
    destroy = false
  }
}

# 2. Adopt the same objects into the typed resources. The import ID is the object's name.
import {
  for_each = var.adopt_existing ? local.node_classes : {}
  to       = karpenter_aksnodeclass.this[each.key]
  id       = each.value.name
}

import {
  for_each = var.adopt_existing ? local.node_pools : {}
  to       = karpenter_nodepool.this[each.key]
  id       = each.value.name
}

# 3. Every attribute comes from the YAML, so the first plan shows no change to the objects.
resource "karpenter_aksnodeclass" "this" {
  for_each = local.node_classes

  name               = each.value.name
  image_family       = each.value.image_family
  os_disk_size_gb    = each.value.os_disk_size_gb
  max_pods           = each.value.max_pods
  vnet_subnet_id     = each.value.vnet_subnet_id
  tags               = each.value.tags
  fips_mode          = each.value.fips_mode
  gpu                = each.value.gpu
  kubelet            = each.value.kubelet
  linux_os_config    = each.value.linux_os_config
  local_dns          = each.value.local_dns
  security           = each.value.security
  artifact_streaming = each.value.artifact_streaming
}

resource "karpenter_nodepool" "this" {
  for_each = local.node_pools

  name       = each.value.name
  weight     = each.value.weight
  replicas   = each.value.replicas
  template   = each.value.template
  limits     = each.value.limits
  disruption = each.value.disruption

  # The pools name their node class in the YAML; planning the node classes first lets the
  # plan-time checks use their settings instead of the defaults.
  depends_on = [karpenter_aksnodeclass.this]
}
