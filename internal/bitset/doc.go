// Package bitset is a fixed-size set of small integers, one bit each. It is a domain leaf
// with no imports of this module. It holds the instance-type sets of the requirement index
// (internal/analysis) and the pod-group sets of the optimum's bounds
// (internal/simulation/optimal). Those sets, a region's few thousand types or a few hundred
// groups, are intersected many times per plan.
package bitset
