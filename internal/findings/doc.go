// Package findings is the one registry of the problems this project reports: a stable code, a
// default severity, a title and help text for each. It is in the domain; the review and the
// provider's plan-time checks both report through it. So a code means the same in a pull
// request, a CI log and a terraform plan, and suppressing it works the same everywhere. Codes
// are never reused or renumbered. They are grouped by what raises them: KRP0xx input and
// API-server checks; KRP1xx one NodePool against the catalog (internal/analysis); KRP2xx the
// objects of one cluster; KRP3xx workloads (internal/workload), and from KRP320 the clusters
// of a fleet group (codes_fleet.go); KRP4xx disruption and lifecycle (codes_disruption.go).
package findings
