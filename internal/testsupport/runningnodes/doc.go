// Package runningnodes puts running nodes on the local test cluster for the acceptance tests of
// the plan-time drift warning (KRP422): launched NodeClaims as Karpenter leaves them, and the
// pattern the warning is matched with in Terraform's output.
package runningnodes
