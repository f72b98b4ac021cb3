package crdtree

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// JSONProblem is an attribute of a JSON attribute map that could not be mapped onto the tree:
// one this version of the schema does not have, or a value of another shape. Plans made with
// another provider version produce them.
type JSONProblem struct {
	// Path is the Terraform attribute path, e.g. template.requirements[0].min_values.
	Path   string
	Reason string
}

// FromJSON writes the children of n found in attrs into a Kubernetes object, like ToObject but
// from the JSON form of attribute values that `terraform show -json` prints for a resource
// (change.after, with change.after_unknown as unknown). Null values are left out, values
// unknown until apply become Unknown, read-only attributes are never written. Numbers are
// expected as json.Number (a decoder with UseNumber) or float64.
//
// Attributes n does not know and values of the wrong shape are returned as problems instead
// of failing, so that the rest of the object can still be judged.
func (n *Node) FromJSON(attrs map[string]any, unknown any) (map[string]any, []JSONProblem) {
	var probs []JSONProblem
	return n.objectFromJSON(attrs, unknown, "", &probs), probs
}

func (n *Node) objectFromJSON(attrs map[string]any, unknown any, at string, probs *[]JSONProblem) map[string]any {
	out := map[string]any{}
	unk, _ := unknown.(map[string]any)
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if n.Child(name) == nil {
			*probs = append(*probs, JSONProblem{Path: joinAttr(at, name), Reason: "not an attribute of this provider version"})
		}
	}
	for _, c := range n.Children {
		if c.Computed {
			continue
		}
		p := joinAttr(at, c.Name)
		if isTrue(unk[c.Name]) {
			SetPath(out, c.Path, Unknown{})
			continue
		}
		raw, ok := attrs[c.Name]
		if !ok || raw == nil {
			continue
		}
		if v, ok := c.valueFromJSON(raw, unk[c.Name], p, probs); ok {
			SetPath(out, c.Path, v)
		}
	}
	return out
}

func (n *Node) valueFromJSON(raw, unknown any, at string, probs *[]JSONProblem) (any, bool) {
	wrong := func(want string) (any, bool) {
		*probs = append(*probs, JSONProblem{Path: at, Reason: fmt.Sprintf("expected %s, got %s", want, jsonType(raw))})
		return nil, false
	}
	switch n.Kind {
	case String:
		s, ok := raw.(string)
		if !ok {
			return wrong("a string")
		}
		return s, true
	case Int64:
		switch x := raw.(type) {
		case json.Number:
			if i, err := x.Int64(); err == nil {
				return i, true
			}
		case float64:
			if x == float64(int64(x)) {
				return int64(x), true
			}
		}
		return wrong("an integer")
	case Float64:
		switch x := raw.(type) {
		case json.Number:
			if f, err := x.Float64(); err == nil {
				return f, true
			}
		case float64:
			return x, true
		}
		return wrong("a number")
	case Bool:
		b, ok := raw.(bool)
		if !ok {
			return wrong("a boolean")
		}
		return b, true
	case Object:
		m, ok := raw.(map[string]any)
		if !ok {
			return wrong("an object")
		}
		return n.objectFromJSON(m, unknown, at, probs), true
	case ObjectList, StringList:
		items, ok := raw.([]any)
		if !ok {
			return wrong("a list")
		}
		unk, _ := unknown.([]any)
		out := make([]any, 0, len(items))
		for i, it := range items {
			p := at + "[" + strconv.Itoa(i) + "]"
			var u any
			if i < len(unk) {
				u = unk[i]
			}
			if isTrue(u) {
				out = append(out, Unknown{})
				continue
			}
			if n.Kind == StringList {
				s, ok := it.(string)
				if !ok {
					*probs = append(*probs, JSONProblem{Path: p, Reason: "expected a string, got " + jsonType(it)})
					continue
				}
				out = append(out, s)
				continue
			}
			m, ok := it.(map[string]any)
			if !ok {
				*probs = append(*probs, JSONProblem{Path: p, Reason: "expected an object, got " + jsonType(it)})
				continue
			}
			out = append(out, n.objectFromJSON(m, u, p, probs))
		}
		return out, true
	case StringMap:
		m, ok := raw.(map[string]any)
		if !ok {
			return wrong("a map")
		}
		unk, _ := unknown.(map[string]any)
		out := make(map[string]any, len(m))
		for k, e := range m {
			if isTrue(unk[k]) {
				out[k] = Unknown{}
				continue
			}
			s, ok := e.(string)
			if !ok {
				*probs = append(*probs, JSONProblem{Path: at + "[" + strconv.Quote(k) + "]", Reason: "expected a string, got " + jsonType(e)})
				continue
			}
			out[k] = s
		}
		// Unknown entries are absent from the values and present only in the unknown map.
		for k, u := range unk {
			if _, seen := m[k]; !seen && isTrue(u) {
				out[k] = Unknown{}
			}
		}
		return out, true
	}
	return wrong(fmt.Sprintf("kind %d", n.Kind))
}

func isTrue(v any) bool {
	b, ok := v.(bool)
	return ok && b
}

// joinAttr builds attribute paths as terraform-plugin-framework prints them.
func joinAttr(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number, float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
