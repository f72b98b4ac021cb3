# Karpenter's getting-started EC2NodeClass for EKS, with the node IAM role that
# terraform-aws-modules/eks's karpenter submodule creates (see the EKS guide).

terraform {
  required_providers {
    karpenter = {
      source = "karpenter-iac/karpenter"
    }
  }
}

resource "karpenter_ec2nodeclass" "default" {
  name = "default"
  role = "KarpenterNodeRole-my-cluster" # module.karpenter.node_iam_role_name

  # Pin the AMI release (KRP120 warns about @latest in production-looking classes).
  ami_selector_terms = [{ alias = "al2023@v20240625" }]

  subnet_selector_terms         = [{ tags = { "karpenter.sh/discovery" = "my-cluster" } }]
  security_group_selector_terms = [{ tags = { "karpenter.sh/discovery" = "my-cluster" } }]

  block_device_mappings = [{
    device_name = "/dev/xvda"
    ebs         = { volume_size = "100Gi", volume_type = "gp3", encrypted = true }
  }]
  metadata_options = { http_tokens = "required", http_put_response_hop_limit = 1 }
  tags             = { team = "platform" }
}
