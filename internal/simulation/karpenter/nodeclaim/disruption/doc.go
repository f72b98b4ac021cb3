// Package disruption emulates the conditions Karpenter's NodeClaim disruption controller
// (sigs.k8s.io/karpenter v1.14.x pkg/controllers/nodeclaim/disruption) sets on a NodeClaim,
// which make it a candidate of the disruption controller.
//
// | file     | upstream file                                   |
// |----------|-------------------------------------------------|
// | drift.go | pkg/controllers/nodeclaim/disruption/drift.go   |
//
// The requirements algebra and the NodePool hash are Karpenter's own functions, imported. The
// cloud provider's part of drift (its node class hash, images, versions) is the caller's, as
// upstream asks it of the cloud provider.
package disruption
