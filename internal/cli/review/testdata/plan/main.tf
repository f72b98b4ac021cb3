# A small configuration for the review's plan test: planned with the real terraform binary
# and this provider (no cluster needed), then reviewed from `terraform show -json`.
terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

provider "karpenter" {
  region = "northeurope"
}

# Its output is only known after apply, like a name computed from another resource.
resource "terraform_data" "late_name" {
  input = "late"
}

resource "karpenter_aksnodeclass" "default" {
  name         = "default"
  image_family = "AzureLinux"
}

resource "karpenter_nodepool" "general" {
  name   = "general"
  weight = 10
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D"] },
    ]
  }
  limits = { cpu = "100" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "1m"
  }
}

# Same weight as general and D-family nodes fit both; and no limits.
resource "karpenter_nodepool" "batch" {
  name   = "batch"
  weight = 10
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = karpenter_aksnodeclass.default.name }
    requirements = [
      { key = "karpenter.azure.com/sku-family", operator = "In", values = ["D", "E"] },
    ]
  }
}

# References a node class that this configuration does not create.
resource "karpenter_nodepool" "orphan" {
  name = "orphan"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "gone" }
    requirements = [
      { key = "kubernetes.io/arch", operator = "In", values = ["arm64"] },
    ]
    taints = [{ key = "dedicated", value = "orphan", effect = "NoSchedule" }]
  }
  limits = { cpu = "16" }
}

# Its node class name is unknown at plan time: the reference cannot be judged, so no finding.
resource "karpenter_nodepool" "late" {
  name = "late"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = terraform_data.late_name.output }
    requirements = [
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
    ]
    taints = [{ key = "dedicated", value = "late", effect = "NoSchedule" }]
  }
  limits = { cpu = "16" }
}
