// Package optimumdigest is the tests' digest of optimum results (optimal.Simulate's
// simmodel.Simulation, as JSON) against a committed file: the optimal package's tests hash
// seeded random inputs, the comparators' tests the benchmark's scenarios, with one helper.
// It is test support and reaches no Terraform or command package.
package optimumdigest
