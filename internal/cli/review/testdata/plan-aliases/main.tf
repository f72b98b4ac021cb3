# Two clusters in one configuration, one karpenter provider configuration each: the review
# splits the plan by provider configuration, so the spot-only pools of the east cluster get
# no fallback from the west cluster's on-demand pool, and each cluster has its own region.
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

provider "karpenter" {
  alias  = "east"
  region = "eastus"
}

resource "karpenter_nodepool" "general" {
  name = "general"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
    ]
  }
  limits = { cpu = "100" }
}

resource "karpenter_nodepool" "spot" {
  provider = karpenter.east
  name     = "spot"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements = [
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["spot"] },
    ]
  }
  limits = { cpu = "100" }
}

# A module's resources belong to the configuration the module is given.
module "edge" {
  source    = "./edge"
  count     = 1
  providers = { karpenter = karpenter.east }
}
