package workload

import "github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"

// Document is one parsed Kubernetes object of the input.
type Document struct {
	// File is the path as shown to the user; Line is where the document starts.
	File string
	Line int
	// Body is the object as kubectl would send it (YAML read as JSON, integers as int64).
	Body map[string]any
	// LineOf returns the line a field path (e.g. spec, replicas) was written on, or 0; nil
	// when positions are not known.
	LineOf func(path []string) int
}

// lineOf is the line of the deepest written part of path, else the document's line.
func (d Document) lineOf(path []string) int {
	if d.LineOf != nil {
		if l := d.LineOf(path); l > 0 {
			return l
		}
	}
	return d.Line
}

// Finding is a problem of a workload document: the project's one finding value (its Path the
// Kubernetes field path, e.g. spec.template.spec.containers[0].resources; its Object as kubectl
// names it, e.g. Deployment/web) and the file and line it was written on.
type Finding struct {
	findings.Finding
	File string
	Line int
}
