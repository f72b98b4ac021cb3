// Package planstate is what the provider's resources learn from each other while Terraform
// plans, typed and ordered by construction. It is a Terraform-facing helper that imports only
// the cloud seam. Within one walk the resources form stages. The NAP resource publishes the
// Network Contributor scopes it grants. An AKSNodeClass reads them and publishes its planned
// settings; an EC2NodeClass publishes its own, keyed by kind and name. A NodePool reads the
// node class its template references. A stage's handle (Board.NAP, Board.NodeClasses,
// Board.NodePools) has only its own stage's reads and writes, and every read says whether it
// found nothing, a plan, or a plan pending apply. What a walk publishes is for diagnostics
// only, since the apply walk plans again only what changes, in another order. Computed values
// come from what the resource observed at its last refresh or write (Observed): ForAnalysis
// takes no Board, so it cannot read the walk. A new reference has no observation in the apply
// walk: ForNewReference reads the walk only for a class it changes, which Terraform plans
// again, before a pool that references it.
package planstate
