package review

import (
	"context"
	"slices"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Cluster is what one cluster will hold once the reviewed inputs are applied: the unit every
// Check judges, so that references and weights are compared only within one cluster.
type Cluster struct {
	Name string
	// Region is the Azure region the cluster runs in ("" when nobody said).
	Region      string
	NodePools   []*Object
	NodeClasses []*Object
	// ExternalNodeClasses exist in the cluster but are not part of the input (e.g. the
	// `default` AKSNodeClass that AKS Node Auto Provisioning creates).
	ExternalNodeClasses []string
	// SelfHosted: the cluster runs self-hosted Karpenter, so no AKSNodeClass exists that the
	// input does not define (with NAP, AKS creates `default`).
	SelfHosted bool
}

// NAPNodeClass is the AKSNodeClass that AKS Node Auto Provisioning creates (and that its own
// pools, default and system-surge, reference).
const NAPNodeClass = "default"

// Check judges the objects of one cluster. It reports findings with codes from
// internal/findings; Object.Finding fills in the severity and location. Checks must not
// modify the cluster: they run one after another on the same objects.
type Check func(ctx context.Context, c *Cluster) []Finding

// DefaultChecks are the checks that need no SKU catalog. The provisioning solver adds its
// own Check next to them.
func DefaultChecks() []Check {
	return []Check{CheckSchema, CheckNodeClassRefs, CheckEqualWeights, CheckProvisioning}
}

// Finding is one problem, located at its source.
type Finding struct {
	Code     findings.Code     `json:"code"`
	Severity findings.Severity `json:"severity"`
	Message  string            `json:"message"`
	// Fix says what to change, specific to this finding.
	Fix string `json:"fix,omitempty"`
	// Object is the object concerned, e.g. NodePool/general ("" for input problems).
	Object  string `json:"object,omitempty"`
	Cluster string `json:"cluster,omitempty"`
	Location
	// Related are other places involved, e.g. the pool a pool competes with.
	Related []Location `json:"related,omitempty"`

	// suppressedHere: the object itself asks not to report this code (a karpenter_nodepool's
	// checks.suppress in a plan), as the provider's plan-time checks do not.
	suppressedHere bool
}

// Finding reports code about field of o (a Kubernetes field path; "" for the whole object),
// with the registry's severity.
func (o *Object) Finding(code findings.Code, field, message, fix string) Finding {
	return Finding{
		suppressedHere: slices.Contains(o.Suppress, code),
		Code:           code,
		Severity:       findings.MustLookup(code).Severity,
		Message:        message,
		Fix:            fix,
		Object:         o.Label(),
		Location:       o.At(field),
	}
}

// fileFinding reports a problem of an input that is not about one object.
func fileFinding(code findings.Code, loc Location, message, fix string) Finding {
	return Finding{Code: code, Severity: findings.MustLookup(code).Severity, Message: message, Fix: fix, Location: loc}
}
