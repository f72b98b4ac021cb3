terraform {
  required_providers {
    karpenter = { source = "karpenter-iac/karpenter" }
  }
}

provider "karpenter" {
  region = "northeurope"
}

resource "karpenter_aksnodeclass" "default" {
  name = "default"
}

# No limits, but the pool silences KRP104 itself: the review must honour that as the plan did.
resource "karpenter_nodepool" "quiet" {
  name = "quiet"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] }]
  }
  checks = { suppress = ["KRP104"] }
}

# The same without the suppression: KRP104 is reported.
resource "karpenter_nodepool" "loud" {
  name = "loud"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements   = [{ key = "karpenter.azure.com/sku-family", operator = "In", values = ["E"] }]
  }
}
