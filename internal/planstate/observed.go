package planstate

import (
	"encoding/json"
	"reflect"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// Ref is a NodePool's node_class_ref, with the cloud whose node-class kind it names.
type Ref struct {
	Kind, Name string
	// Cloud owns the referenced group and kind; nil when no registered cloud does (Karpenter
	// launches nothing from such a pool, and the defaults are assumed).
	Cloud cloud.Cloud
}

// IsNodeClass says that the reference names a node-class kind of a registered cloud.
func (r Ref) IsNodeClass() bool { return r.Cloud != nil }

// Observed is what a NodePool keeps in private state of the node class it references, as its
// last refresh or write saw it: the settings planned before it in that walk, or else the live
// object. Terraform's plan during apply gets the private state of the refresh, so both walks
// see it alike. Its JSON is stored in Terraform state: keep the field names.
type Observed struct {
	// Name and Kind of the reference the snapshot was taken for.
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
	// Found is false when no such node class was planned or exists (or the kind is no cloud's).
	Found bool `json:"found"`
	// Settings are the node class of the reference's cloud (its defaults when not found; nil
	// when the kind is no cloud's, or when decoded without the cloud).
	Settings NodeClassSettings `json:"settings"`
	// Pending is set when the node class planned in that walk had settings known only after apply.
	Pending bool `json:"pending,omitempty"`
	// Why says why no settings were found.
	Why string `json:"why,omitempty"`
}

// DecodeObserved reads an Observed kept in private state; ok is false when there is none.
// Settings are decoded as the node class of c, the cloud of the reference it is read for
// (nil: left nil, for callers that need only whether the class was found).
func DecodeObserved(b []byte, c cloud.Cloud) (o Observed, ok bool) {
	var raw struct {
		Observed
		Settings json.RawMessage `json:"settings"`
	}
	if len(b) == 0 || json.Unmarshal(b, &raw) != nil {
		return Observed{}, false
	}
	o = raw.Observed
	o.Settings = nil
	if c != nil && len(raw.Settings) > 0 && string(raw.Settings) != "null" {
		nc, err := decodeSettings(raw.Settings, c)
		if err != nil {
			return Observed{}, false
		}
		o.Settings = nc
	}
	return o, true
}

// decodeSettings reads settings JSON as a value of the type of c's node classes.
func decodeSettings(b []byte, c cloud.Cloud) (cloud.NodeClass, error) {
	t := reflect.TypeOf(c.DefaultNodeClass())
	if t.Kind() == reflect.Pointer {
		v := reflect.New(t.Elem())
		err := json.Unmarshal(b, v.Interface())
		nc, _ := v.Interface().(cloud.NodeClass)
		return nc, err
	}
	v := reflect.New(t)
	err := json.Unmarshal(b, v.Interface())
	nc, _ := v.Elem().Interface().(cloud.NodeClass)
	return nc, err
}

// Encode is the JSON kept in private state.
func (o Observed) Encode() []byte {
	b, _ := json.Marshal(o)
	return b
}

// label names the observation of ref (of its kind and name).
func (o Observed) label(ref Ref) string {
	if o.Found {
		return o.Kind + " " + o.Name
	}
	return assumedLabel(ref, o.Why)
}

func assumedLabel(r Ref, why string) string {
	if !r.IsNodeClass() {
		return "defaults assumed (" + r.Name + " is not a node class of a cloud this provider serves)"
	}
	return "defaults assumed (" + r.Kind + " " + r.Name + " " + why + ")"
}

// Observe is what a pool referencing ref keeps after a refresh or write. It keeps the settings
// of the node class planned before it in this walk, the newest (during a refresh that is
// Terraform's plan walk). Or else it keeps the live object, which live reads (found false: it
// does not exist).
func (s NodePoolStage) Observe(ref Ref, live func() (settings NodeClassSettings, found bool, err error)) Observed {
	o := Observed{Name: ref.Name, Kind: ref.Kind}
	if !ref.IsNodeClass() {
		return o
	}
	o.Settings = ref.Cloud.DefaultNodeClass()
	planned := s.NodeClassOf(ref.Kind, ref.Name)
	if !planned.of(ref) {
		planned = PlannedNodeClass{Name: ref.Name}
	}
	switch planned.State {
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
	// Assumed says that Settings are the CRD defaults, as no such node class was found (or
	// the reference names a kind of no cloud).
	Assumed bool
	// Label names it in the analysis and in diagnostics.
	Label string
}

// ForAnalysis is the node class a value the plan computes (the pool's analysis) may use. It is
// the pool's observation, when that describes the class referenced now with all its settings.
// It is none for a create, which has no private state in Terraform's apply walk. It takes no
// Board, since what a walk planned differs between Terraform's two walks. ViewUnknown means
// that the value is known after apply.
func ForAnalysis(ref Ref, remembered []byte, creating bool) NodeClassView {
	o, ok := DecodeObserved(remembered, ref.Cloud)
	if !ok || creating || o.Name != ref.Name || o.Kind != ref.Kind || o.Pending {
		return NodeClassView{State: ViewUnknown}
	}
	if o.Settings == nil && ref.IsNodeClass() {
		o.Settings = ref.Cloud.DefaultNodeClass()
	}
	return NodeClassView{State: ViewObserved, Settings: o.Settings, Assumed: !o.Found, Label: o.label(ref)}
}

// ForDiagnostics is the node class the plan's diagnostics use, which need not agree between
// walks: the one planned before the pool in this walk (the newest settings), else the
// analysis's, else the CRD defaults.
func (s NodePoolStage) ForDiagnostics(ref Ref, analysis NodeClassView) NodeClassView {
	if ref.IsNodeClass() {
		if planned := s.NodeClassOf(ref.Kind, ref.Name); planned.Exists() && planned.of(ref) {
			return NodeClassView{State: ViewPlanned, Settings: planned.Settings, Label: ref.Kind + " " + ref.Name + " as planned"}
		}
	}
	if analysis.State != ViewUnknown {
		return analysis
	}
	return NodeClassView{State: ViewUnknown, Assumed: true, Label: assumedLabel(ref, "is not planned with this pool")}
}
