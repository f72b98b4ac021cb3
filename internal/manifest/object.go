package manifest

import (
	"context"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
)

// Object is a Kubernetes object of a stream: a document, or an item of a kind: List.
type Object struct {
	File string
	Line int // where the object starts
	GVK  schema.GroupVersionKind
	Body map[string]any
	// Fields are the positions of its fields, rooted at the object.
	Fields Positions
}

// Name is metadata.name, or "".
func (o Object) Name() string {
	meta, _ := o.Body["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	return name
}

// LineOf is the line where a field (or its nearest written ancestor) was written.
func (o Object) LineOf(path []string) int {
	if p, ok := o.Fields.Lookup(path); ok {
		return p.Line
	}
	return o.Line
}

// Objects returns the objects of documents: a mapping with its apiVersion and kind as
// written, the items of a v1 List each on their own (as kubectl applies them). Documents that
// are not mappings (a list, a scalar) are no objects and are left out.
func Objects(docs []Document) []Object {
	var out []Object
	for _, d := range docs {
		out = appendObjects(out, d.File, d.Line, d.Value, d.Fields)
	}
	return out
}

func appendObjects(out []Object, file string, line int, v any, fields Positions) []Object {
	m, ok := v.(map[string]any)
	if !ok {
		return out
	}
	apiVersion, _ := m["apiVersion"].(string)
	kind, _ := m["kind"].(string)
	if apiVersion == "v1" && kind == "List" {
		items, _ := m["items"].([]any)
		for i, it := range items {
			at := []string{"items", strconv.Itoa(i)}
			l := line
			if p, ok := fields[Key(at)]; ok {
				l = p.Line
			}
			out = appendObjects(out, file, l, it, fields.Sub(at))
		}
		return out
	}
	if p, ok := fields[Key(nil)]; ok {
		line = p.Line
	}
	gv, _ := schema.ParseGroupVersion(apiVersion)
	return append(out, Object{File: file, Line: line, GVK: gv.WithKind(kind), Body: m, Fields: fields})
}

// TypeMeta is how an object names its type in messages: "apiVersion kind".
func TypeMeta(o Object) string {
	return fmt.Sprintf("%s %s", o.GVK.GroupVersion(), o.GVK.Kind)
}

// Validate checks an object of a Karpenter CRD as the API server would on create, after its
// defaults (crdvalidate: the CRD's OpenAPI schema, CEL rules and defaults), and returns the
// messages of what it would reject. The object's body is not changed.
func Validate(ctx context.Context, o Object) ([]string, error) {
	v, err := crdvalidate.For(o.GVK)
	if err != nil {
		return nil, err
	}
	return crdvalidate.Messages(v.Validate(ctx, o.Body)), nil
}
