package source

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// Object is one NodePool or AKSNodeClass as the review sees it.
type Object struct {
	GVK  schema.GroupVersionKind
	Name string
	// Body is the object as the API server would receive it. Objects from a Terraform plan
	// hold crdtree.Unknown where a value is only known after apply.
	Body map[string]any
	// Source says where the object was read.
	Source Source
	// Suppress are codes the object's own configuration silences (checks.suppress of a
	// karpenter_nodepool in a plan).
	Suppress []findings.Code
	// Provider is the key of the provider configuration a plan's resource uses ("karpenter",
	// "karpenter.east"); "" for manifests.
	Provider string
	// Converted: the object was written as karpenter.sh/v1beta1 and is checked as converted
	// to v1 (KRP002).
	Converted bool
	// ClassGuessed: the conversion found no cloud in the pool (a nodeClassRef with only a
	// name, no provider label domain in its requirements) and took AKS's; the cluster's region
	// may say otherwise (classByRegion).
	ClassGuessed bool
}

// Source is where an object was read: a document in a file, or a resource in a plan.
type Source struct {
	// File is the path as shown to the user (relative to the working directory when the
	// input was given relative), or "stdin".
	File string
	// Line and Column are where the document (or the plan's resource entry) starts; 0 when
	// unknown.
	Line, Column int
	// Address is the Terraform resource address for objects from a plan.
	Address string

	// Fields maps Kubernetes field paths to the place they were written (YAML only).
	Fields Positions
	// Patched maps the paths of maps that a Kustomize patch merged into (keeping the base's
	// position in fields) to where the patch wrote them: a finding about such a map as a
	// whole is probably about what the patch added.
	Patched Positions
	// tree maps Kubernetes field paths to Terraform attribute paths (plans only).
	tree *crdtree.Node
}

// Location is where a finding points: a file position, a resource address, and the field.
type Location struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	// Address is the Terraform resource address (plans).
	Address string `json:"address,omitempty"`
	// Field is the Kubernetes field path, as the API server prints it.
	Field string `json:"field,omitempty"`
	// Attribute is the Terraform attribute path (plans).
	Attribute string `json:"attribute,omitempty"`
}

// Label names the object as kubectl does: NodePool/general.
func (o *Object) Label() string { return o.GVK.Kind + "/" + o.Name }

// At locates a field of the object: the line of the deepest part of the path that the
// source wrote (a missing required field points at its parent), and for plan objects the
// Terraform attribute path.
func (o *Object) At(field string) Location {
	loc := Location{File: o.Source.File, Line: o.Source.Line, Column: o.Source.Column, Address: o.Source.Address, Field: field}
	segs := crdtree.ParseFieldPath(field)
	if p, ok := o.Source.Fields.Lookup(segs); ok {
		loc.File, loc.Line, loc.Column = p.File, p.Line, p.Column
	}
	if p, ok := o.Source.Patched[PosKey(segs)]; ok && field != "" {
		loc.File, loc.Line, loc.Column = p.File, p.Line, p.Column
	}
	if o.Source.tree != nil && field != "" {
		if ap, ok := o.Source.tree.AttributePath(segs); ok {
			loc.Attribute = ap.String()
		}
	}
	return loc
}

// Get returns the value at a path of the object's body, or nil.
func (o *Object) Get(path ...string) any {
	var cur any = o.Body
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

// String returns the string at path, or "" (also for unknown values).
func (o *Object) String(path ...string) string {
	s, _ := o.Get(path...).(string)
	return s
}

// pos is where a field was written, positions where each field of an object was (the
// manifest reader's).
type (
	Pos       = manifest.Pos
	Positions = manifest.Positions
)

func PosKey(segs []string) string { return manifest.Key(segs) }

// Clone copies an object so that each cluster can patch its own.
func (o *Object) Clone() *Object {
	c := *o
	c.Body = DeepCopy(o.Body).(map[string]any)
	c.Source.Fields = o.Source.Fields.Clone()
	c.Source.Patched = o.Source.Patched.Clone()
	return &c
}
