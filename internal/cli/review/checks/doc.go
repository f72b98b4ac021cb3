// Package checks is the fourth stage of the review pipeline (config -> source -> assemble ->
// checks -> report): each Check judges one assembled Cluster and returns Findings, the same
// checks the provider runs at plan time (schema and CEL validation, node class references,
// equal weights, provisioning against the embedded VM catalog, NodeOverlays, EC2NodeClasses).
// summary.go describes each NodePool (the facts of the report's pool summary).
//
// The provisioning check analyses every pool once per review (check_provisioning.go); the
// fleet view and the facts read the same analyses.
package checks
