package bicepgen

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// TypeKind is the shape of a Bicep type expression.
type TypeKind int

const (
	String TypeKind = iota
	Int
	Bool
	// Any is used for Kubernetes int-or-string values (resource quantities): Bicep unions must
	// reduce to one ARM type, so `int | string` cannot be written.
	Any
	// Literals is a union of string literals (a CRD enum).
	Literals
	Object
	Array
	// Map is an object with only additional properties ({ *: T }).
	Map
	// Ref names another generated type.
	Ref
)

// Type is a Bicep type expression.
type Type struct {
	Kind     TypeKind
	Literals []string    // Literals
	Props    []*Property // Object
	Elem     *Type       // Array element, Map value
	Ref      string      // Ref
}

// Property is one property of an object type.
type Property struct {
	// Name is the Kubernetes field name, which is also the Bicep property name.
	Name     string
	Type     *Type
	Optional bool
	// Description is the @description text, with its Required./Optional. prefix.
	Description string
	// Decorators are the bound decorators (@minLength, @maxValue, ...), without description.
	Decorators []string
	// K8sPath is the field's path in the object, e.g. spec.template.spec.requirements.
	K8sPath string
	// TerraformPath is the provider attribute the property corresponds to, e.g.
	// template.requirements; empty for wrappers the provider flattens away (spec).
	TerraformPath string
	// Default is the CRD default as JSON, empty when none.
	Default string
}

// Decl is one exported type declaration.
type Decl struct {
	Name        string
	Description string
	Type        *Type
}

// Kind describes one generated module's types.
type Kind struct {
	// Resource is the provider resource, e.g. karpenter_nodepool.
	Resource string
	Kind     *kinds.Kind
	// TypeName and SpecTypeName name the exported object and spec types.
	TypeName, SpecTypeName string
}

// Build derives the exported type declarations of k from the provider's attribute tree.
func Build(k Kind) ([]Decl, error) {
	v, err := crdvalidate.For(k.Kind.GVK)
	if err != nil {
		return nil, err
	}
	root := k.Kind.Tree()
	b := &builder{resource: k.Resource}
	var children []*crdtree.Node
	for _, c := range root.Children {
		if !c.Computed { // status is read-only: never written, so not part of the input type
			children = append(children, c)
		}
	}
	props := b.object(children, v.Schema, "", "")
	var metadata, spec *Property
	for _, p := range props {
		switch p.Name {
		case "metadata":
			metadata = p
		case "spec":
			spec = p
		default:
			return nil, fmt.Errorf("%s: unexpected top-level field %q outside metadata and spec", k.Resource, p.Name)
		}
	}
	if metadata == nil || spec == nil {
		return nil, fmt.Errorf("%s: the tree has no metadata or no spec", k.Resource)
	}
	gv := k.Kind.GVK.GroupVersion().String()
	specDecl := Decl{
		Name:        k.SpecTypeName,
		Description: fmt.Sprintf("The spec of %s %s (%s), as the %s resource of terraform-provider-karpenter defines it.", article(k.Kind.GVK.Kind), k.Kind.GVK.Kind, gv, k.Resource),
		Type:        spec.Type,
	}
	spec.Type = &Type{Kind: Ref, Ref: k.SpecTypeName}
	top := &Type{Kind: Object, Props: []*Property{
		{
			Name: "apiVersion", Optional: true, K8sPath: "apiVersion",
			Type:        &Type{Kind: Literals, Literals: []string{gv}},
			Description: fmt.Sprintf("Optional. The API version, `%s`; present when the object comes from a manifest (loadYamlContent).", gv),
		},
		{
			Name: "kind", Optional: true, K8sPath: "kind",
			Type:        &Type{Kind: Literals, Literals: []string{k.Kind.GVK.Kind}},
			Description: fmt.Sprintf("Optional. The kind, `%s`; present when the object comes from a manifest (loadYamlContent).", k.Kind.GVK.Kind),
		},
		metadata,
		spec,
	}}
	objDecl := Decl{
		Name: k.TypeName,
		Description: fmt.Sprintf("%s %s (%s) with exactly the fields of the %s resource of terraform-provider-karpenter, in the Kubernetes shape, so that a manifest loaded with loadYamlContent() fits it. "+
			"Generated from the provider's schema; the API server applies the documented defaults and validates the CEL rules.", strings.ToUpper(article(k.Kind.GVK.Kind)[:1])+article(k.Kind.GVK.Kind)[1:], k.Kind.GVK.Kind, gv, k.Resource),
		Type: top,
	}
	return []Decl{objDecl, specDecl}, nil
}

type builder struct{ resource string }

// object builds the properties of an object whose fields are the given tree nodes. Nodes whose
// Kubernetes path has several segments were flattened by the provider's layout; they are
// regrouped under wrapper objects named by the path's first segment, whose documentation
// comes from the CRD schema of the enclosing object (parent).
func (b *builder) object(nodes []*crdtree.Node, parent *apiextensionsv1.JSONSchemaProps, k8sPrefix, tfPrefix string) []*Property {
	groups := map[string][]*crdtree.Node{}
	var order []string
	var props []*Property
	for _, n := range nodes {
		if len(n.Path) == 1 {
			props = append(props, b.leaf(n, k8sPrefix, tfPrefix))
			continue
		}
		seg := n.Path[0]
		if _, ok := groups[seg]; !ok {
			order = append(order, seg)
		}
		cp := *n
		cp.Path = n.Path[1:]
		groups[seg] = append(groups[seg], &cp)
	}
	for _, seg := range order {
		var ws *apiextensionsv1.JSONSchemaProps
		if parent != nil {
			if s, ok := parent.Properties[seg]; ok {
				ws = &s
			}
		}
		k8sPath := join(k8sPrefix, seg)
		inner := b.object(groups[seg], ws, k8sPath, tfPrefix)
		required := parent != nil && slices.Contains(parent.Required, seg)
		for _, p := range inner {
			required = required || !p.Optional
		}
		desc := ""
		if ws != nil {
			desc = sentence(ws.Description)
		}
		if seg == "metadata" && k8sPrefix == "" {
			desc = fmt.Sprintf("Object metadata. Only the name is part of the %s resource; other metadata is not written.", b.resource)
		}
		where := fmt.Sprintf("top-level attributes of %s", b.resource)
		if tfPrefix != "" {
			where = fmt.Sprintf("attributes of `%s`", tfPrefix)
		}
		props = append(props, &Property{
			Name: seg, K8sPath: k8sPath, Optional: !required,
			Type:        &Type{Kind: Object, Props: inner},
			Description: prefix(!required) + strings.TrimSpace(desc+" Terraform flattens this object away: its fields are "+where+"."),
		})
	}
	sort.SliceStable(props, func(i, j int) bool { return props[i].Name < props[j].Name })
	return props
}

// leaf builds the property for a tree node whose path is one field.
func (b *builder) leaf(n *crdtree.Node, k8sPrefix, tfPrefix string) *Property {
	name := n.Path[0]
	k8sPath := join(k8sPrefix, name)
	tfPath := join(tfPrefix, n.Name)
	p := &Property{Name: name, K8sPath: k8sPath, TerraformPath: tfPath, Optional: !n.Required}
	s := n.Schema
	if s == nil {
		s = &apiextensionsv1.JSONSchemaProps{}
	}
	var extra []string
	switch n.Kind {
	case crdtree.String:
		p.Type = scalarType(s)
		if s.XIntOrString {
			extra = append(extra, "An integer or a string.")
		}
		if p.Type.Kind == String {
			p.Decorators = append(p.Decorators, lengthBounds(s.MinLength, s.MaxLength)...)
		}
	case crdtree.Int64, crdtree.Float64:
		// The pinned CRDs have no non-integer numbers; a Float64 field would need Bicep's json()
		// and is reported rather than guessed.
		if n.Kind == crdtree.Float64 {
			panic(fmt.Sprintf("bicepgen: %s is a non-integer number, which Bicep types cannot express", k8sPath))
		}
		p.Type = &Type{Kind: Int}
		p.Decorators = append(p.Decorators, valueBounds(s)...)
	case crdtree.Bool:
		p.Type = &Type{Kind: Bool}
	case crdtree.StringList:
		elem := &Type{Kind: String}
		if s.Items != nil && s.Items.Schema != nil {
			elem = scalarType(s.Items.Schema)
		}
		p.Type = &Type{Kind: Array, Elem: elem}
		p.Decorators = append(p.Decorators, lengthBounds(s.MinItems, s.MaxItems)...)
	case crdtree.StringMap:
		val := &Type{Kind: String}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			val = scalarType(s.AdditionalProperties.Schema)
			if s.AdditionalProperties.Schema.XIntOrString {
				extra = append(extra, "Values are integers or strings (quantities such as `100` or `800Gi`).")
			}
		}
		p.Type = &Type{Kind: Map, Elem: val}
	case crdtree.Object:
		p.Type = &Type{Kind: Object, Props: b.object(n.Children, s, k8sPath, tfPath)}
	case crdtree.ObjectList:
		var items *apiextensionsv1.JSONSchemaProps
		if s.Items != nil {
			items = s.Items.Schema
		}
		p.Type = &Type{Kind: Array, Elem: &Type{Kind: Object, Props: b.object(n.Children, items, k8sPath+"[*]", tfPath+"[*]")}}
		p.Decorators = append(p.Decorators, lengthBounds(s.MinItems, s.MaxItems)...)
	}
	if s.Default != nil {
		var v any
		if json.Unmarshal(s.Default.Raw, &v) == nil {
			d, _ := json.Marshal(v)
			p.Default = string(d)
			extra = append(extra, fmt.Sprintf("Defaults to `%s` as the API server does.", strings.Trim(string(d), `"`)))
		}
	}
	switch {
	case k8sPath == "metadata.name":
		// The provider's name attribute: LengthBetween(1, 253) in crdresource.Resource.Schema.
		p.Decorators = append(p.Decorators, "@minLength(1)", "@maxLength(253)")
		extra = append(extra, "A new name is a new object; the Terraform provider replaces the object instead.")
	case n.RequiresReplace:
		extra = append(extra, "Immutable: the API server rejects a change (the Terraform provider replaces the object instead).")
	}
	if n.ReplaceOnPresenceChange {
		extra = append(extra, "Cannot be set or unset after creation, only changed (the Terraform provider replaces the object instead).")
	}
	if s.Pattern != "" {
		extra = append(extra, "The API server checks its format.")
	}
	extra = append(extra, fmt.Sprintf("Terraform: `%s`.", tfPath))
	// Some CRD descriptions open with "Required."; the prefix already says so.
	crd := strings.TrimPrefix(strings.TrimPrefix(sentence(s.Description), "Required. "), "Optional. ")
	p.Description = prefix(p.Optional) + strings.TrimSpace(crd+" "+strings.Join(extra, " "))
	return p
}

func scalarType(s *apiextensionsv1.JSONSchemaProps) *Type {
	switch {
	case s.XIntOrString || len(s.AnyOf) > 0:
		return &Type{Kind: Any}
	case s.Type == "integer":
		return &Type{Kind: Int}
	case s.Type == "boolean":
		return &Type{Kind: Bool}
	case len(s.Enum) > 0:
		var lits []string
		for _, e := range s.Enum {
			var v string
			if json.Unmarshal(e.Raw, &v) == nil {
				lits = append(lits, v)
			}
		}
		return &Type{Kind: Literals, Literals: lits}
	}
	return &Type{Kind: String}
}

func lengthBounds(minimum, maximum *int64) []string {
	var out []string
	if minimum != nil && *minimum > 0 {
		out = append(out, fmt.Sprintf("@minLength(%d)", *minimum))
	}
	if maximum != nil {
		out = append(out, fmt.Sprintf("@maxLength(%d)", *maximum))
	}
	return out
}

func valueBounds(s *apiextensionsv1.JSONSchemaProps) []string {
	var out []string
	if s.Minimum != nil {
		m := int64(math.Ceil(*s.Minimum))
		if s.ExclusiveMinimum && float64(m) == *s.Minimum {
			m++
		}
		out = append(out, fmt.Sprintf("@minValue(%d)", m))
	}
	if s.Maximum != nil {
		m := int64(math.Floor(*s.Maximum))
		if s.ExclusiveMaximum && float64(m) == *s.Maximum {
			m--
		}
		out = append(out, fmt.Sprintf("@maxValue(%d)", m))
	}
	return out
}

func prefix(optional bool) string {
	if optional {
		return "Optional. "
	}
	return "Required. "
}

// sentence collapses a CRD description into one paragraph ending in a period.
func sentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	return strings.TrimSuffix(s, ".") + "."
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// article is the indefinite article for a kind name ("an AKSNodeClass", "a NodePool").
func article(word string) string {
	if strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
