// Package catalog is the project's EC2 instance-type catalog for Karpenter on
// EKS: the facts upstream's instance-type code reads from EC2
// DescribeInstanceTypes (vCPUs, memory, architecture, GPUs, accelerators, local
// NVMe, bandwidths, hypervisor), the VPC ENI/IP limits, and list prices with
// their provenance, embedded as a gzip artefact (catalog.json.gz) and decoded on
// first use.
//
// The artefact is built by ./gen from the public reference data in
// reference/aws at the repository root (provenance: reference/SOURCES.md):
//
//   - instance_types_from_upstream_docs.json: the labels upstream's docs
//     generator printed per type (aws/karpenter-provider-aws main 1d92708). The
//     labels are the DescribeInstanceTypes facts; the extended resources that no
//     overhead touches (GPU, Neuron, EFA counts) are facts too. The derived
//     resources (cpu, memory, pods, ephemeral-storage) are NOT read: they are what
//     the derivation in internal/cloud/eks must reproduce.
//   - vpc_limits.json: ENIs of the default network card, IPv4 addresses per ENI,
//     trunking and branch interfaces (upstream's generated table, 2026-08-06).
//   - prices_ondemand_by_region.json: upstream's generated on-demand tables
//     (us-east-1 and us-gov-* in USD, cn-north-1 in CNY).
//   - prices_spot_by_region_2024-08-09.json: a third-party spot snapshot from
//     2024, carried as an estimate and labelled so in every price it yields.
//
// The catalog has no availability-zone data and no supported usage classes per
// type (the public data lacks both); callers must say so where it matters.
package catalog
