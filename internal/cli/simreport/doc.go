// Package simreport is the part of a simulation's report that the simulate command and
// review --workloads share: the nodes of a state as one table per NodePool, and Karpenter's
// steady state (its nodes, the disruptions on the way, the totals, the nodes that stay and
// why, the assumptions) in text, markdown and JSON.
//
// Both commands print a steady state in the same words, so that a figure read in a review
// is the figure simulate gives for the same input.
package simreport
