package crdtree

import (
	"slices"
	"strconv"
)

// Unknown stands in a Kubernetes object for a value Terraform does not know until apply.
// The API server's defaulting passes over it, and validation strips it first (StripUnknown).
type Unknown struct{}

// StripUnknown returns a copy of obj without Unknown values and the field paths (as segments)
// where they stood, so validation judges only what is known and its findings about unknown
// parts can be set aside.
func StripUnknown(obj map[string]any) (map[string]any, [][]string) {
	var unknown [][]string
	out, _ := strip(obj, nil, &unknown)
	m, _ := out.(map[string]any)
	return m, unknown
}

func strip(v any, at []string, unknown *[][]string) (any, bool) {
	switch x := v.(type) {
	case Unknown:
		*unknown = append(*unknown, slices.Clone(at))
		return nil, false
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if s, ok := strip(e, append(at, k), unknown); ok {
				out[k] = s
			}
		}
		return out, true
	case []any:
		out := make([]any, 0, len(x))
		for i, e := range x {
			if s, ok := strip(e, append(at, strconv.Itoa(i)), unknown); ok {
				out = append(out, s)
			} else {
				// Dropping the element shifts the indices after it, so the whole list counts
				// as unknown for the purpose of setting findings aside.
				*unknown = append(*unknown, slices.Clone(at))
			}
		}
		return out, true
	default:
		return v, true
	}
}
