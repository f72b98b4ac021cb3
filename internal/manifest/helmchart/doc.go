// Package helmchart renders a local Helm chart as `helm template` does, with Helm's own Go SDK:
// chart loader, values coalescing and schema validation, dependency conditions, the template
// engine, manifest sorting. It is in the domain, below the review and the simulate command. It
// renders offline: nothing is fetched, a dependency missing from charts/ is a problem, and
// lookup returns nothing. The caller reads the chart's files, so the review's read bounds
// (regular files, inside the reviewed tree, size limits) apply to them.
package helmchart
