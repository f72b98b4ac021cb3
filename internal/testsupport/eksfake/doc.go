// Package eksfake stands in for AWS in the tests of EKS connections with real parts. It is
// test support, outside the layers. It serves an EKS DescribeCluster endpoint that answers
// with the local API servers' endpoints and CAs. It also serves the TokenReview webhook those
// API servers ask, as EKS asks aws-iam-authenticator. The webhook accepts a token only when it
// is a presigned STS GetCallerIdentity URL for that cluster, signed with the test's
// credentials, and checks the signature with the AWS SDK's own signer.
package eksfake
