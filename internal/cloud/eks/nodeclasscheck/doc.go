// Package nodeclasscheck holds the checks of an EC2NodeClass (karpenter.k8s.aws/v1) that need
// no AWS account. It says what the selector terms make Karpenter's AWS provider select, and
// whether a production-looking class pins its AMI, as EKS best practice asks. The plan
// (karpenter_ec2nodeclass) and the review call the same function on the unstructured object,
// so a finding means the same in both. It checks only what the CRD's OpenAPI and CEL rules let
// through, so nothing is reported twice. A term's selection follows aws/karpenter-provider-aws
// v1.14.1 (subnet, securitygroup and amifamily getFilterSets/DescribeImageQueries): an id wins
// over the other fields, an AMI term's ssmParameter over its name, owner and tags, and tags are
// ANDed as EC2 filters. It is in the domain and reads plain maps. It imports neither the AWS
// provider, whose init extends Karpenter's global label sets, nor internal/cloud/eks.
package nodeclasscheck
