// Package provisioningsimulation defines the karpenter_provisioning_simulation data source.
// Pending pods (shapes and counts, or manifests), NodePools and their node classes go in. Out
// come, by `mode`, the NodeClaims Karpenter would launch (the default), the cheapest packing
// with its certified lower bound, or both with their gap, offline from the embedded catalogs.
// It is Terraform-facing and imports no command. It only maps Terraform values to a
// simulation.Input and the result back. The simulation is simulation.Simulate and Advise, as
// for the simulate command, and the package may not import the emulation, the optimum or a
// cloud itself (internal/testsupport/archtest).
package provisioningsimulation
