terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

locals {
  node_class = provider::karpenter::ec2nodeclass_from_yaml(file("${path.module}/nodeclasses/default.yaml"))
}

resource "karpenter_ec2nodeclass" "default" {
  name                          = local.node_class.name
  role                          = local.node_class.role
  ami_selector_terms            = local.node_class.ami_selector_terms
  subnet_selector_terms         = local.node_class.subnet_selector_terms
  security_group_selector_terms = local.node_class.security_group_selector_terms
}
