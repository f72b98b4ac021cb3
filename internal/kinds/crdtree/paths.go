package crdtree

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
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

// StepType says what a Step of an attribute path selects.
type StepType int

const (
	// AttributeName selects a named attribute (Step.Name).
	AttributeName StepType = iota
	// ListIndex selects a list element (Step.Index).
	ListIndex
	// MapKey selects a map entry (Step.Name is the key).
	MapKey
)

// Step is one step of an attribute path.
type Step struct {
	Type  StepType
	Name  string // attribute name or map key
	Index int    // list index
}

// AttrPath is a path through the tree's attributes, e.g. template.requirements[0].key: the
// attribute a user wrote, in the tree's names rather than the Kubernetes ones.
type AttrPath []Step

// String prints the path exactly as terraform-plugin-framework prints its path.Path:
// names joined by dots, list indices as [0], map keys quoted as ["nvidia.com/gpu"].
func (p AttrPath) String() string {
	var b strings.Builder
	for i, s := range p {
		switch s.Type {
		case AttributeName:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case ListIndex:
			fmt.Fprintf(&b, "[%d]", s.Index)
		case MapKey:
			fmt.Fprintf(&b, "[%q]", s.Name)
		}
	}
	return b.String()
}

// AttributePath maps Kubernetes field path segments to the deepest attribute path that n's
// tree has for them. ok is false when not even the first attribute matched.
func (n *Node) AttributePath(segs []string) (AttrPath, bool) {
	var p AttrPath
	cur := n
	matched := false
	for len(segs) > 0 {
		child := cur.childFor(segs)
		if child == nil {
			break
		}
		matched = true
		segs = segs[len(child.Path):]
		p = append(p, Step{Type: AttributeName, Name: child.Name})
		switch child.Kind {
		case ObjectList, StringList:
			if len(segs) == 0 {
				return p, true
			}
			i, err := strconv.Atoi(segs[0])
			if err != nil {
				return p, true
			}
			p = append(p, Step{Type: ListIndex, Index: i})
			segs = segs[1:]
		case StringMap:
			// The OpenAPI validator reports a map value as <map>.<key>, and keys such as
			// "nvidia.com/gpu" or "karpenter.azure.com/sku-family" hold dots themselves:
			// whatever follows the map is the key.
			if len(segs) > 0 {
				p = append(p, Step{Type: MapKey, Name: strings.Join(segs, ".")})
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

// Related reports whether a finding at path a concerns a value at path b: one contains the other.
func Related(a, b []string) bool {
	n := min(len(a), len(b))
	return slices.Equal(a[:n], b[:n])
}
