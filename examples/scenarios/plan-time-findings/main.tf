# The plan-time checks as a CI gate: strict mode turns every warning into an error, a pool
# silences a finding it accepts, another declares the largest pod it must run, and outputs show
# what the checks found. Guide: "Reading the plan-time findings".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

provider "karpenter" {
  region = "westeurope"
  checks = {
    strict = true # warnings fail the plan too
  }
}

resource "karpenter_aksnodeclass" "general" {
  name            = "general"
  image_family    = "AzureLinux"
  os_disk_size_gb = 128
}

resource "karpenter_nodepool" "general" {
  name   = "general"
  weight = 10
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },
    ]
  }
  limits = { cpu = "200", memory = "800Gi" }
}

# Memory-heavy pods: the plan fails (KRP112) if none of the admissible sizes could run the
# largest of them after kube-reserved and eviction thresholds.
resource "karpenter_nodepool" "memory" {
  name = "memory"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["E", "M"] },
      { key = "karpenter.azure.com/sku-memory", operator = "Gt", values = ["262143"] }, # MiB: more than 256 GiB
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["49"] },        # the cpu limit holds three of the largest (KRP119)
    ]
    taints = [{ key = "workload", value = "memory", effect = "NoSchedule" }]
  }
  limits = { cpu = "192", memory = "3Ti" }
  checks = {
    largest_pod = { cpu = "30", memory = "400Gi" }
  }
}

# A sandbox for one team: bounded by its budget elsewhere, so no limits, and the pool says so.
resource "karpenter_nodepool" "sandbox" {
  name = "sandbox"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["B", "D"] },
    ]
    taints = [{ key = "team", value = "sandbox", effect = "NoSchedule" }]
  }
  checks = {
    suppress = ["KRP104"] # no limits, on purpose
  }
}

output "analysis" {
  description = "The plan-time analysis of every pool (also in terraform show -json)."
  value = {
    for p in [karpenter_nodepool.general, karpenter_nodepool.memory, karpenter_nodepool.sandbox] : p.name => {
      admissible_sizes = p.analysis.admissible_skus
      cheapest         = p.analysis.cheapest_sku
      largest          = "${p.analysis.largest_sku} (${p.analysis.largest_vcpu} vCPU, ${p.analysis.largest_memory_gib} GiB)"
      monthly_at_limit = p.analysis.monthly_cost_at_limits
      findings         = [for f in p.analysis.findings : "${f.severity} ${f.code} at ${f.path}: ${f.message}"]
    }
  }
}
