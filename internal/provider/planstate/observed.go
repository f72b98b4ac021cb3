package planstate

import "encoding/json"

// aksNodeClassKind is the only node class kind Karpenter on AKS launches nodes from.
const aksNodeClassKind = "AKSNodeClass"

// Ref is a NodePool's node_class_ref.
type Ref struct {
	Kind, Name string
}

// IsAKS says that the reference names an AKSNodeClass.
func (r Ref) IsAKS() bool { return r.Kind == aksNodeClassKind }

// Observed is what a NodePool keeps in private state of the node class it references, as its
// last refresh or write saw it: the settings planned before it in that walk, or else the live
// object. Terraform's plan during apply gets the private state of the refresh, so both walks
// see it alike. Its JSON is stored in Terraform state: keep the field names.
type Observed struct {
	// Name and Kind of the reference the snapshot was taken for.
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
	// Found is false when no such AKSNodeClass was planned or exists (or the kind is another).
	Found    bool              `json:"found"`
	Settings NodeClassSettings `json:"settings"`
	// Pending is set when the node class planned in that walk had settings known only after apply.
	Pending bool `json:"pending,omitempty"`
	// Why says why no settings were found.
	Why string `json:"why,omitempty"`
}

// DecodeObserved reads an Observed kept in private state; ok is false when there is none.
func DecodeObserved(b []byte) (o Observed, ok bool) {
	if len(b) == 0 || json.Unmarshal(b, &o) != nil {
		return Observed{}, false
	}
	return o, true
}

// Encode is the JSON kept in private state.
func (o Observed) Encode() []byte {
	b, _ := json.Marshal(o)
	return b
}

func (o Observed) label() string {
	if o.Found {
		return "AKSNodeClass " + o.Name
	}
	return assumedLabel(Ref{Kind: o.Kind, Name: o.Name}, o.Why)
}

func assumedLabel(r Ref, why string) string {
	if !r.IsAKS() {
		return "defaults assumed (" + r.Name + " is not an AKSNodeClass)"
	}
	return "defaults assumed (AKSNodeClass " + r.Name + " " + why + ")"
}

// Observe is what a pool referencing ref keeps after a refresh or write: the settings of the
// node class planned before it in this walk (the newest; during a refresh that is Terraform's
// plan walk), or else the live object, which live reads (found false: it does not exist).
func (s NodePoolStage) Observe(ref Ref, live func() (settings NodeClassSettings, found bool, err error)) Observed {
	o := Observed{Name: ref.Name, Kind: ref.Kind}
	if !ref.IsAKS() {
		return o
	}
	switch planned := s.NodeClass(ref.Name); planned.State {
	case NodeClassDeleted:
		// Destroyed by this run: as the refresh after it will find it.
		o.Why = "does not exist"
	case NodeClassPlanned, NodeClassPending:
		o.Found, o.Settings, o.Pending = true, planned.Settings, planned.State == NodeClassPending
	default:
		settings, found, err := live()
		switch {
		case err != nil:
			o.Why = "could not be read"
		case !found:
			o.Why = "does not exist"
		default:
			o.Found, o.Settings = true, settings
		}
	}
	return o
}

// ViewState says where the node class a pool is checked with comes from.
type ViewState int

const (
	// ViewUnknown: nothing usable is known. For a value the plan computes, it is known after
	// apply; diagnostics check with the CRD defaults and say so.
	ViewUnknown ViewState = iota
	// ViewPlanned: the node class planned before the pool in this walk.
	ViewPlanned
	// ViewObserved: as the pool's last refresh or write saw it (which may be "not found", and
	// then the CRD defaults are assumed).
	ViewObserved
)

// NodeClassView is the node class a pool is checked with.
type NodeClassView struct {
	State    ViewState
	Settings NodeClassSettings
	// Assumed says that Settings are the CRD defaults, as no such AKSNodeClass was found (or
	// the reference names another kind).
	Assumed bool
	// Label names it in the analysis and in diagnostics.
	Label string
}

// ForAnalysis is the node class a value the plan computes (the pool's analysis) may use: the
// pool's observation, when it describes the class referenced now with all its settings, and
// not for a create, which has no private state in Terraform's apply walk. It takes no Board,
// since what a walk planned differs between Terraform's two walks. ViewUnknown means that
// the value is known after apply.
func ForAnalysis(ref Ref, remembered []byte, creating bool) NodeClassView {
	o, ok := DecodeObserved(remembered)
	if !ok || creating || o.Name != ref.Name || o.Kind != ref.Kind || o.Pending {
		return NodeClassView{State: ViewUnknown}
	}
	return NodeClassView{State: ViewObserved, Settings: o.Settings, Assumed: !o.Found, Label: o.label()}
}

// ForDiagnostics is the node class the plan's diagnostics use, which need not agree between
// walks: the one planned before the pool in this walk (the newest settings), else the
// analysis's, else the CRD defaults.
func (s NodePoolStage) ForDiagnostics(ref Ref, analysis NodeClassView) NodeClassView {
	if ref.IsAKS() {
		if planned := s.NodeClass(ref.Name); planned.Exists() {
			return NodeClassView{State: ViewPlanned, Settings: planned.Settings, Label: "AKSNodeClass " + ref.Name + " as planned"}
		}
	}
	if analysis.State != ViewUnknown {
		return analysis
	}
	return NodeClassView{State: ViewUnknown, Assumed: true, Label: assumedLabel(ref, "is not planned with this pool")}
}
