package crdtree

import (
	"sort"
	"strings"
	"unicode"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// Kind is the shape of a node's value.
type Kind int

const (
	String Kind = iota
	Int64
	Float64
	Bool
	Object     // nested object with named fields
	ObjectList // list of nested objects
	StringList // list of strings
	StringMap  // map of strings (also int-or-string values such as resource quantities)
)

// Node is one attribute in the mapping tree.
type Node struct {
	Name string   // Terraform attribute name
	Path []string // Kubernetes field path relative to the parent's value (several after flattening)
	Kind Kind
	// Children are the fields of an Object, or of each element of an ObjectList.
	Children []*Node

	Schema   *apiextensionsv1.JSONSchemaProps
	Required bool
	// Computed marks read-only attributes (status).
	Computed bool
	// Defaulted marks attributes that the CRD defaults; they are Optional+Computed and the plan
	// shows the default, exactly as the API server will store it.
	Defaulted bool
	// RequiresReplace plans a replacement when the value changes (immutable fields).
	RequiresReplace bool
	// ReplaceOnPresenceChange plans a replacement only when the value is set or unset, for
	// CEL rules such as has(self.replicas) == has(oldSelf.replicas).
	ReplaceOnPresenceChange bool
}

// FromSchema builds the node for a field of the given JSON schema.
func FromSchema(k8sName string, s *apiextensionsv1.JSONSchemaProps, required, computed bool) *Node {
	n := &Node{Name: SnakeCase(k8sName), Path: []string{k8sName}, Schema: s, Required: required && s.Default == nil && !computed, Computed: computed, Defaulted: s.Default != nil && !computed}
	switch {
	case s.XIntOrString:
		n.Kind = String
	case s.Type == "string":
		n.Kind = String
	case s.Type == "integer":
		n.Kind = Int64
	case s.Type == "number":
		n.Kind = Float64
	case s.Type == "boolean":
		n.Kind = Bool
	case s.Type == "array" && s.Items != nil && s.Items.Schema != nil && s.Items.Schema.Type == "object":
		n.Kind = ObjectList
		n.Children = children(s.Items.Schema, computed)
	case s.Type == "array":
		n.Kind = StringList
	case s.Type == "object" && len(s.Properties) == 0 && s.AdditionalProperties != nil:
		n.Kind = StringMap
	default:
		n.Kind = Object
		n.Children = children(s, computed)
	}
	return n
}

func children(s *apiextensionsv1.JSONSchemaProps, computed bool) []*Node {
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make([]*Node, 0, len(names))
	for _, k := range names {
		p := s.Properties[k]
		out = append(out, FromSchema(k, &p, req[k], computed))
	}
	return out
}

// Child returns the child with the given Terraform name, or nil.
func (n *Node) Child(name string) *Node {
	for _, c := range n.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Flatten replaces the named Object child by its own children, whose paths are prefixed with
// the child's path. It is how `spec` disappears from the resource and `template.metadata` and
// `template.spec` merge into `template`.
func (n *Node) Flatten(name string) {
	var out []*Node
	for _, c := range n.Children {
		if c.Name != name {
			out = append(out, c)
			continue
		}
		for _, gc := range c.Children {
			gc.Path = append(append([]string{}, c.Path...), gc.Path...)
			out = append(out, gc)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	n.Children = out
}

// Walk calls fn for n and every node below it.
func (n *Node) Walk(fn func(*Node)) {
	fn(n)
	for _, c := range n.Children {
		c.Walk(fn)
	}
}

// SnakeCase turns a Kubernetes field name into a Terraform attribute name:
// osDiskSizeGB → os_disk_size_gb, vnetSubnetID → vnet_subnet_id, netIPv4TCPFinTimeout →
// net_ipv4_tcp_fin_timeout.
func SnakeCase(s string) string {
	s = strings.ReplaceAll(s, "IPv4", "Ipv4")
	s = strings.ReplaceAll(s, "IPv6", "Ipv6")
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) && i > 0 {
			prev := r[i-1]
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}
