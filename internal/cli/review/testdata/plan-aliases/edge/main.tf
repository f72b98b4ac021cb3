terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

resource "karpenter_nodepool" "batch" {
  for_each = toset(["batch"])
  name     = each.key
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot"] },
    ]
  }
  limits = { cpu = "100" }
}
