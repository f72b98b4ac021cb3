# Karpenter on EKS: the getting-started NodePool and EC2NodeClass as typed resources, checked
# offline at plan time. terraform-aws-modules/eks and its karpenter submodule keep the cluster,
# the IAM roles, the Pod Identity association and the interruption queue; the variables below
# stand in for their outputs (see the guide for the wiring).
# Guide: "Karpenter on EKS".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

variable "cluster_name" {
  description = "module.eks.cluster_name: the discovery tag value of the cluster's subnets and node security group."
  type        = string
  default     = "my-cluster"
}

variable "node_iam_role_name" {
  description = "module.karpenter.node_iam_role_name: the IAM role of the nodes Karpenter launches."
  type        = string
  default     = "KarpenterNodeRole-my-cluster"
}

variable "kubeconfig_path" {
  description = "A kubeconfig for the cluster (aws eks update-kubeconfig), or use the exec block shown in the guide."
  type        = string
  default     = "~/.kube/config"
}

provider "karpenter" {
  kubernetes = {
    config_path = var.kubeconfig_path
  }
}

resource "karpenter_ec2nodeclass" "default" {
  name = "default"
  role = var.node_iam_role_name

  # Pinned: a new AMI release reaches the nodes when you raise the version (KRP120 warns
  # about @latest in a production-looking class).
  ami_selector_terms = [{ alias = "al2023@v20240625" }]

  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = var.cluster_name } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = var.cluster_name } }]
}

resource "karpenter_nodepool" "default" {
  name = "default"
  template = {
    # A reference to the resource: Terraform plans the class first, and the pool's checks see it.
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.default.name }
    expire_after   = "720h"
    requirements = [
      { key = "kubernetes.io/arch", operator = "In", values = ["amd64"] },
      { key = "kubernetes.io/os", operator = "In", values = ["linux"] },
      { key = "karpenter.sh/capacity-type", operator = "In", values = ["on-demand"] },
      { key = "karpenter.k8s.aws/instance-category", operator = "In", values = ["c", "m", "r"] },
      { key = "karpenter.k8s.aws/instance-generation", operator = "Gt", values = ["2"] },
    ]
  }
  limits = { cpu = "1000" }
  disruption = {
    consolidation_policy = "WhenEmptyOrUnderutilized"
    consolidate_after    = "1m"
  }
}
