# Quickstart: one AKSNodeClass and three NodePools, the shape most AKS NAP clusters need.
# `make demo` applies it to a local API server that has the Karpenter CRDs installed.

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "kubeconfig_path" {
  description = "Kubeconfig of the cluster (for AKS, prefer kubernetes.aks_cluster_id)."
  type        = string
}

variable "region" {
  description = "Azure region whose SKUs and prices the plan-time checks use."
  type        = string
  default     = "westeurope"
}

provider "karpenter" {
  region = var.region
  kubernetes = {
    config_path = var.kubeconfig_path
  }
}

resource "karpenter_aksnodeclass" "default" {
  name            = "default"
  image_family    = "AzureLinux"
  os_disk_size_gb = 128
  tags            = { team = "platform" }
}

# General-purpose pool: D and E families, spot first with on-demand in the same pool.
resource "karpenter_nodepool" "general" {
  name   = "general"
  weight = 10
  template = {
    labels         = { tier = "general" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
    ]
    expire_after = "720h"
  }
  limits = { cpu = "200", memory = "800Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "1m"
    budgets              = [{ nodes = "10%" }]
  }
}

# Batch pool: tainted so only batch pods land there, arm64 for price/performance; spot first,
# on-demand when spot capacity runs out (Karpenter prefers the cheaper offering). Sizes up to
# 16 vCPU: Karpenter charges each new NodeClaim the largest size it may become, so with 64-vCPU
# sizes the 64-vCPU limit would let one provisioning round open a single node (KRP119).
resource "karpenter_nodepool" "batch" {
  name = "batch"
  template = {
    labels         = { tier = "batch" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "kubernetes.io/arch", operator = "In", values = ["arm64"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["17"] },
    ]
    taints = [{ key = "dedicated", value = "batch", effect = "NoSchedule" }]
  }
  limits = { cpu = "64" }
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "5m"
  }
}

# GPU pool: only pods that tolerate the GPU taint, never more than four GPUs, one GPU per node,
# so that one provisioning round can open a node for each of four GPU pods (with 4-GPU sizes
# allowed, each new NodeClaim would be charged four GPUs: KRP119).
resource "karpenter_nodepool" "gpu" {
  name = "gpu"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements = [
      { key = "karpenter.azure.com/sku-gpu-manufacturer", operator = "In", values = ["nvidia"] },
      { key = "karpenter.azure.com/sku-gpu-count", operator = "Lt", values = ["2"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
    ]
    taints = [{ key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }]
  }
  limits = { "nvidia.com/gpu" = "4" }
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "10m"
  }
}

output "nodepools" {
  description = "The NodePools this configuration manages."
  value       = [for p in [karpenter_nodepool.general, karpenter_nodepool.batch, karpenter_nodepool.gpu] : p.name]
}

output "pool_analysis" {
  description = "What the plan-time checks found for each pool: admissible sizes, the cheapest, and the monthly cost at the CPU limit."
  value = {
    for p in [karpenter_nodepool.general, karpenter_nodepool.batch, karpenter_nodepool.gpu] : p.name => {
      admissible_skus        = p.analysis.admissible_skus
      cheapest               = format("%s (%s, %s %.4f/h)", p.analysis.cheapest_sku, p.analysis.cheapest_capacity_type, p.analysis.currency, p.analysis.cheapest_hourly_price)
      largest                = p.analysis.largest_sku
      monthly_cost_at_limits = p.analysis.monthly_cost_at_limits
      findings               = [for f in p.analysis.findings : "${f.code} ${f.severity}: ${f.message}"]
    }
  }
}
