// Package fleet sits beside the checks in the review pipeline (config -> source -> assemble ->
// checks -> report): with two or more clusters it sets them side by side (fleet.go: limits,
// cost at the limits, predicted costs) and compares the clusters of one group (fleet_diff.go,
// fleet_normalise.go: pools and node classes that differ without a reason, KRP5xx).
package fleet
