// Package upstreamparity holds only tests: internal/cloud/eks against the AWS
// provider's NewInstanceType on identical inputs (see go.mod for why it is a
// module of its own).
package upstreamparity
