terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

resource "karpenter_nodepool" "general" {
  name   = "general"
  weight = 10
  template = {
    labels         = { tier = "general" }
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot", "on-demand"] },
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
      { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["33"] },
    ]
    taints       = [{ key = "dedicated", value = "general", effect = "NoSchedule" }]
    expire_after = "720h"
  }
  limits = { cpu = "200", memory = "800Gi" } # three or more of the largest size (KRP119)
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "1m"
    budgets              = [{ nodes = "10%" }]
  }
  timeouts = {
    delete = "60m" # deleting a NodePool drains its nodes first
  }
}
