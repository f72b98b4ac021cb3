# An EKS pool and its EC2NodeClass as typed resources: the review maps the plan's
# karpenter_ec2nodeclass back to its EC2NodeClass, judges the pool against EC2 instance types
# in the provider's region, and runs the EC2NodeClass checks on it (KRP120: @latest in a
# production-looking class).
terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

provider "karpenter" {
  region = "us-east-1"
}

resource "karpenter_ec2nodeclass" "prod" {
  name                          = "prod"
  role                          = "KarpenterNodeRole-my-cluster"
  ami_selector_terms            = [{ alias = "al2023@latest" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "my-cluster" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "my-cluster" } }]
}

resource "karpenter_nodepool" "general" {
  name = "general"
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.prod.name }
    requirements = [
      { key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["c", "m", "r"] },
      { key = "karpenter.k8s.aws/instance-generation", operator = "Gt", values = ["2"] },
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
    ]
  }
  limits = { cpu = "1000" }
}
