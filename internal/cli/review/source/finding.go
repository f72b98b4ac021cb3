package source

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Finding is one finding of the review: the project's one finding value (code, object, field
// path, message, fix; severity from the registry), located at its source.
type Finding struct {
	findings.Finding
	Cluster string
	// Location is where the finding's field is written; Location.Field is its Path.
	Location
	// Related are other places involved, e.g. the pool a pool competes with.
	Related []Location

	// SuppressedHere: the object itself asks not to report this code (a karpenter_nodepool's
	// checks.suppress in a plan), as the provider's plan-time checks do not.
	SuppressedHere bool
}

// Finding reports code about field of o (a Kubernetes field path; "" for the whole object).
func (o *Object) Finding(code findings.Code, field, message, fix string) Finding {
	return o.Located(findings.New(code, field, message, fix))
}

// Located places a finding about o (its Path a field of o) at its source.
func (o *Object) Located(f findings.Finding) Finding {
	f.Object = o.Label()
	return Finding{Finding: f, Location: o.At(f.Path), SuppressedHere: slices.Contains(o.Suppress, f.Code)}
}

// FileFinding reports a problem of an input that is not about one object.
func FileFinding(code findings.Code, loc Location, message, fix string) Finding {
	return Finding{Finding: findings.New(code, loc.Field, message, fix), Location: loc}
}

// JSONFinding is a finding as the JSON report writes it (JSONVersion 1): the severity it is
// reported with, the object and its location.
type JSONFinding struct {
	Code     findings.Code     `json:"code"`
	Severity findings.Severity `json:"severity"`
	Message  string            `json:"message"`
	Fix      string            `json:"fix,omitempty"`
	// Object is the object concerned, e.g. NodePool/general ("" for input problems).
	Object  string `json:"object,omitempty"`
	Cluster string `json:"cluster,omitempty"`
	Location
	Related []Location `json:"related,omitempty"`
}

// MarshalJSON writes the finding with the severity it is reported with.
func (f Finding) MarshalJSON() ([]byte, error) {
	return json.Marshal(JSONFinding{Code: f.Code, Severity: f.Severity(), Message: f.Message, Fix: f.Fix, Object: f.Object,
		Cluster: f.Cluster, Location: f.Location, Related: f.Related})
}

// UnmarshalJSON reads a finding the JSON report wrote (for programs that read reports back).
// A severity other than the registry's is taken as strict mode's or as one of the documented
// alternatives; an unknown code or an undocumented severity is an error.
func (f *Finding) UnmarshalJSON(b []byte) error {
	var j JSONFinding
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	r, ok := findings.Lookup(j.Code)
	if !ok {
		return fmt.Errorf("unknown finding code %q", j.Code)
	}
	ff := findings.Finding{Code: j.Code, Object: j.Object, Path: j.Field, Message: j.Message, Fix: j.Fix}
	switch {
	case j.Severity == r.Severity:
	case j.Severity == findings.Error && r.Severity == findings.Warning:
		ff = ff.Strict()
	case slices.Contains(r.Alternatives, j.Severity):
		ff = ff.As(j.Severity)
	default:
		return fmt.Errorf("%s is never reported as %s", j.Code, j.Severity)
	}
	*f = Finding{Finding: ff, Cluster: j.Cluster, Location: j.Location, Related: j.Related}
	return nil
}
