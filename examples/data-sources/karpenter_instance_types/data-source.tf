# The arm64 D-family sizes up to 8 vCPUs that an AzureLinux node class admits in
# northeurope, cheapest first.

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

data "karpenter_instance_types" "arm" {
  region = "northeurope"
  requirements = [
    { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
    { key = "karpenter.azure.com/sku-cpu", operator = "Lt", values = ["9"] },
    { key = "kubernetes.io/arch", operator = "In", values = ["arm64"] },
  ]
  node_class  = { image_family = "AzureLinux" }
  max_results = 5
}

output "cheapest_arm_sizes" {
  value = [for it in data.karpenter_instance_types.arm.instance_types : format("%s: %d vCPU, %s allocatable, %s %.4f/h", it.name, it.vcpu, it.allocatable.memory, it.currency, it.on_demand_price)]
}
