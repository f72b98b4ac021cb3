# GPU NodePools that only GPU workloads use: tainted, capped by GPU count, and checked at plan
# time that the largest training pod fits on some admissible size. Guide: "GPU pools with taints".

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

# Which NVIDIA sizes the inference pool may use in the region, cheapest first (offline, from the
# provider's catalog); handy when choosing the GPU names below.
data "karpenter_instance_types" "inference" {
  requirements = [
    { key = "karpenter.azure.com/sku-gpu-name", operator = "In", values = ["T4", "A10"] },
  ]
  node_class  = { image_family = "Ubuntu2204" }
  max_results = 5
}

resource "karpenter_aksnodeclass" "gpu" {
  name            = "gpu"
  image_family    = "Ubuntu2204"
  os_disk_size_gb = 256                 # CUDA images are large
  gpu             = { mode = "Driver" } # AKS installs the NVIDIA driver; "None" for the GPU Operator
}

locals {
  # The NVIDIA device plugin tolerates this taint; every GPU pod must tolerate it as well.
  gpu_taint = { key = "nvidia.com/gpu", value = "true", effect = "NoSchedule" }
}

# Inference: small T4 and A10 sizes, one GPU each, spot first (with 4-GPU sizes allowed, each new
# NodeClaim would be charged four of the eight GPUs: KRP119).
resource "karpenter_nodepool" "gpu_inference" {
  name   = "gpu-inference"
  weight = 10
  template = {
    labels         = { workload = "inference" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.gpu.name }
    requirements = [
      { key = "karpenter.azure.com/sku-gpu-name", operator = "In", values = ["T4", "A10"] },
      { key = "karpenter.azure.com/sku-gpu-count", operator = "Lt", values = ["2"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
    ]
    taints = [local.gpu_taint]
  }
  limits = { "nvidia.com/gpu" = "8", cpu = "256" }
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "10m"
  }
}

# Training: A100 and H100 on demand, a second taint so that inference pods never land here.
resource "karpenter_nodepool" "gpu_training" {
  name = "gpu-training"
  template = {
    labels         = { workload = "training" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.gpu.name }
    requirements = [
      { key = "karpenter.azure.com/sku-gpu-name", operator = "In", values = ["A100", "H100"] },
      # Up to four GPUs a node: with 8-GPU sizes each new NodeClaim would be charged half the
      # 16-GPU budget, two NodeClaims per provisioning round (KRP119).
      { key = "karpenter.azure.com/sku-gpu-count", operator = "Lt", values = ["5"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
    ]
    taints = [local.gpu_taint, { key = "workload", value = "training", effect = "NoSchedule" }]
  }
  limits = { "nvidia.com/gpu" = "16" }
  disruption = {
    consolidation_policy = "WhenEmpty"
    consolidate_after    = "30m"
    budgets              = [{ nodes = "0", reasons = ["Underutilized", "Drifted"] }, { nodes = "1" }]
  }
  checks = {
    # The plan fails (KRP112) if no admissible size can run the largest training pod.
    largest_pod = { cpu = "40", memory = "300Gi", "nvidia.com/gpu" = "2" }
  }
}

output "inference_sizes" {
  description = "The cheapest sizes the inference pool can launch."
  value = [
    for it in data.karpenter_instance_types.inference.instance_types :
    "${it.name}: ${it.gpu_count} x ${it.gpu_name}, ${it.vcpu} vCPU, ${it.memory_gib} GiB"
  ]
}
