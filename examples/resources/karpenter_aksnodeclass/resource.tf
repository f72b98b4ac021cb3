terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

resource "karpenter_aksnodeclass" "default" {
  name            = "default"
  image_family    = "AzureLinux"
  os_disk_size_gb = 128
  max_pods        = 110
  vnet_subnet_id  = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/nodes"
  tags            = { team = "platform", cost-center = "1234" }
  security        = { encryption_at_host = true }
  kubelet = {
    image_gc_high_threshold_percent = 85
    image_gc_low_threshold_percent  = 80
  }
}
