package solver

import "fmt"

// Severity of a finding.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Info    Severity = "info"
)

// Finding codes are stable: users suppress them by code and policies match on them.
const (
	CodeNoInstanceType       = "KRP101" // requirements fit no instance type
	CodeFewInstanceTypes     = "KRP102" // so few fit that Karpenter has little room
	CodeMinValuesUnmet       = "KRP103" // minValues cannot be met
	CodeNoLimits             = "KRP104" // no limits: the pool can grow without bound
	CodeLimitsBelowNode      = "KRP105" // limits smaller than the smallest admissible node
	CodeUnknownLabelKey      = "KRP106" // a well-known domain key that does not exist (typo)
	CodeUnknownLabelValue    = "KRP107" // a value no instance type has in any region
	CodeValueNotInRegion     = "KRP108" // a value that exists, but not in this region
	CodeGPUWithoutTaint      = "KRP109" // GPU sizes admissible without a taint
	CodeSpotWithoutFallback  = "KRP110" // spot-only pool with no on-demand pool to fall back to
	CodeSingleZone           = "KRP111" // all admissible capacity in one zone
	CodePodNeverFits         = "KRP112" // the largest pod fits on no admissible node
	CodeNodeClassAssumed     = "KRP113" // node class not known: defaults assumed
	CodeUnknownRegion        = "KRP114" // region not in the catalog
	CodeOnlyPenaltyPricedSKU = "KRP115" // admissible sizes have no price: Karpenter avoids them
)

// Finding is one thing the solver has to say about a NodePool.
type Finding struct {
	Code     string
	Severity Severity
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
