package tfcrd

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
)

// ParseFieldPath splits a Kubernetes field path as the API server prints it
// ("spec.template.spec.requirements[0].key", "spec.limits[nvidia.com/gpu]") into segments.
func ParseFieldPath(s string) []string {
	var segs []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			segs = append(segs, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			flush()
		case '[':
			flush()
			end := strings.IndexByte(s[i:], ']')
			if end < 0 {
				cur.WriteString(s[i+1:])
				i = len(s)
				continue
			}
			segs = append(segs, s[i+1:i+end])
			i += end
		default:
			cur.WriteByte(s[i])
		}
	}
	flush()
	return segs
}

// AttributePath maps Kubernetes field path segments to the deepest Terraform attribute path
// that n's tree has for them. ok is false when not even the first attribute matched.
func (n *Node) AttributePath(segs []string) (path.Path, bool) {
	p := path.Empty()
	cur := n
	matched := false
	for len(segs) > 0 {
		child := cur.childFor(segs)
		if child == nil {
			break
		}
		matched = true
		segs = segs[len(child.Path):]
		p = p.AtName(child.Name)
		switch child.Kind {
		case ObjectList, StringList:
			if len(segs) == 0 {
				return p, true
			}
			i, err := strconv.Atoi(segs[0])
			if err != nil {
				return p, true
			}
			p = p.AtListIndex(i)
			segs = segs[1:]
		case StringMap:
			// The OpenAPI validator reports a map value as <map>.<key>, and keys such as
			// "nvidia.com/gpu" or "karpenter.azure.com/sku-family" hold dots themselves:
			// whatever follows the map is the key.
			if len(segs) > 0 {
				p = p.AtMapKey(strings.Join(segs, "."))
			}
			return p, true
		}
		cur = child
	}
	return p, matched
}

func (n *Node) childFor(segs []string) *Node {
	for _, c := range n.Children {
		if len(c.Path) <= len(segs) && slices.Equal(c.Path, segs[:len(c.Path)]) {
			return c
		}
	}
	return nil
}

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

// Related reports whether a finding at path a concerns a value at path b: one contains the other.
func Related(a, b []string) bool {
	n := min(len(a), len(b))
	return slices.Equal(a[:n], b[:n])
}
