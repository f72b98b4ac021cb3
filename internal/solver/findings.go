package solver

import (
	"fmt"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Finding is one thing the solver has to say about a NodePool. Codes and severities come from
// the shared registry (internal/findings), so the provider and the review command agree.
type Finding struct {
	Code     findings.Code
	Severity findings.Severity
	// Path is the Kubernetes field path the finding concerns ("spec.limits",
	// "spec.template.spec.requirements[1].values"); empty for the object as a whole.
	Path    string
	Message string
	// Fix says what to change.
	Fix string
}

func (f Finding) String() string {
	s := fmt.Sprintf("%s %s: %s", f.Severity, f.Code, f.Message)
	if f.Path != "" {
		s = f.Path + ": " + s
	}
	return s
}

func requirementPath(i int, field string) string {
	p := fmt.Sprintf("spec.template.spec.requirements[%d]", i)
	if field != "" {
		p += "." + field
	}
	return p
}
