# Spot first, on-demand when spot capacity is short: two NodePools that accept the same pods,
# tried in order of weight. Each has its own limits, so the on-demand bill has a ceiling of its
# own. Guide: "Spot with on-demand fallback".

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
  # What both pools launch; only the capacity type differs. Pods that both pools accept go to
  # the spot pool first.
  general_requirements = [
    { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
    { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },
    { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
  ]
}

resource "karpenter_aksnodeclass" "general" {
  name         = "general"
  image_family = "AzureLinux"
}

resource "karpenter_nodepool" "spot" {
  name   = "general-spot"
  weight = 100
  template = {
    labels         = { tier = "general" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = concat(
      [{ key = "karpenter.sh/capacity-type", operator = "In", values = ["spot"] }],
      local.general_requirements,
    )
  }
  limits = { cpu = "400", memory = "1600Gi" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "1m"
  }
}

# Taken when the spot pool cannot launch: no spot capacity for any allowed size, or its limits
# are reached. Same labels, no taints, so every pod of the spot pool fits here too.
resource "karpenter_nodepool" "on_demand" {
  name   = "general-on-demand"
  weight = 10
  template = {
    labels         = { tier = "general" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.general.name }
    requirements = concat(
      [{ key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] }],
      local.general_requirements,
    )
  }
  limits = { cpu = "100", memory = "800Gi" } # three of the largest size, E32's 256 GiB (KRP119)
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "1m"
  }
}

output "pools" {
  description = "What the plan-time checks found for each pool."
  value = {
    for p in [karpenter_nodepool.spot, karpenter_nodepool.on_demand] : p.name => {
      weight           = p.weight
      admissible_sizes = p.analysis.admissible_skus
      cheapest         = p.analysis.cheapest_sku
      hourly_price     = p.analysis.cheapest_hourly_price
      # "list 2026-08-22" in the regions with spot list prices; elsewhere "estimated: ..." says how.
      price_source    = p.analysis.price_source
      price_estimated = p.analysis.price_estimated
    }
  }
}
