# The same EC2NodeClass and pools on several EKS clusters, in several regions and accounts'
# worth of ARNs, from one provider configuration: every resource names its cluster by ARN in
# the `cluster` attribute, and one for_each over clusters × pools stamps them out. The provider
# reaches each cluster as `aws eks get-token` does (DescribeCluster in the ARN's region, a
# presigned STS token), with the AWS credentials of the environment; the pools are checked
# against their cluster's region. Guide: "Multi-cluster fleets with the cluster attribute and
# for_each".

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

locals {
  clusters = {
    euw1 = "arn:aws:eks:eu-west-1:123456789012:cluster/prod-euw1"
    use1 = "arn:aws:eks:us-east-1:123456789012:cluster/prod-use1"
  }

  pools = {
    # max_vcpu: the largest instance type, so that the limit holds three or more of them (KRP119).
    general = { categories = ["c", "m", "r"], capacity = ["spot", "on-demand"], cpu = 1000, max_vcpu = 192 }
    batch   = { categories = ["c"], capacity = ["spot"], cpu = 200, max_vcpu = 64 }
  }

  # Every cluster × every pool, keyed "euw1/general".
  fleet = {
    for pair in setproduct(keys(local.clusters), keys(local.pools)) :
    "${pair[0]}/${pair[1]}" => { cluster = pair[0], pool = pair[1] }
  }
}

# One provider configuration for the whole fleet. No kubernetes block: each resource's cluster
# attribute names its cluster. Credentials come from the AWS default chain (AWS_PROFILE, web
# identity in CI, ...); assume_role picks the role the clusters' access entries admit.
provider "karpenter" {
  aws = {
    assume_role = { role_arn = "arn:aws:iam::123456789012:role/karpenter-terraform" }
  }
}

resource "karpenter_ec2nodeclass" "default" {
  for_each                      = local.clusters
  name                          = "default"
  role                          = "KarpenterNodeRole-${each.key}"
  ami_selector_terms            = [{ alias = "al2023@v20240625" }]
  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = each.key } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = each.key } }]
  cluster                       = { eks_cluster_arn = each.value, name = each.key }
}

resource "karpenter_nodepool" "pool" {
  for_each = local.fleet
  name     = each.value.pool
  # The region of the checks is the ARN's (eu-west-1, us-east-1).
  cluster = { eks_cluster_arn = local.clusters[each.value.cluster], name = each.value.cluster }
  template = {
    node_class_ref = { group = "karpenter.k8s.aws", kind = "EC2NodeClass", name = karpenter_ec2nodeclass.default[each.value.cluster].name }
    requirements = [
      { key = "karpenter.k8s.aws/instance-category", operator = "In", values = local.pools[each.value.pool].categories },
      { key = "karpenter.sh/capacity-type", operator = "In", values = local.pools[each.value.pool].capacity },
      { key = "karpenter.k8s.aws/instance-cpu", operator = "Lt", values = [tostring(local.pools[each.value.pool].max_vcpu + 1)] },
    ]
  }
  limits = { cpu = tostring(local.pools[each.value.pool].cpu) }
}
