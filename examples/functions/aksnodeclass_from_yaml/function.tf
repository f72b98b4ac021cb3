terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

locals {
  node_class = provider::karpenter::aksnodeclass_from_yaml(file("${path.module}/nodeclasses/default.yaml"))
}

resource "karpenter_aksnodeclass" "default" {
  name            = local.node_class.name
  image_family    = local.node_class.image_family
  os_disk_size_gb = local.node_class.os_disk_size_gb
  tags            = local.node_class.tags
}
