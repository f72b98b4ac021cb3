// Package aws reaches EKS clusters as `aws eks get-token` does. The endpoint and CA come from
// the EKS DescribeCluster API. The bearer token is a presigned STS GetCallerIdentity URL for
// the cluster, signed by the AWS SDK with credentials from its default chain. It is a domain
// client, with no Terraform imports; internal/connect builds on it.
package aws
