# Keep the pool as reviewed YAML (also read by GitOps tools, the review command and Bicep)
# and manage it with Terraform.

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

locals {
  general = provider::karpenter::nodepool_from_yaml(file("${path.module}/pools/general.yaml"))
}

resource "karpenter_nodepool" "general" {
  name       = local.general.name
  weight     = local.general.weight
  template   = local.general.template
  limits     = local.general.limits
  disruption = local.general.disruption
}
