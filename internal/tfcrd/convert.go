package tfcrd

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// Type is the Terraform type of n's value.
func Type(n *crdtree.Node) tftypes.Type {
	switch n.Kind {
	case crdtree.Int64, crdtree.Float64:
		return tftypes.Number
	case crdtree.Bool:
		return tftypes.Bool
	case crdtree.Object:
		return objectType(n)
	case crdtree.ObjectList:
		return tftypes.List{ElementType: objectType(n)}
	case crdtree.StringList:
		return tftypes.List{ElementType: tftypes.String}
	case crdtree.StringMap:
		return tftypes.Map{ElementType: tftypes.String}
	default:
		return tftypes.String
	}
}

func objectType(n *crdtree.Node) tftypes.Object {
	attrs := make(map[string]tftypes.Type, len(n.Children))
	for _, c := range n.Children {
		attrs[c.Name] = Type(c)
	}
	return tftypes.Object{AttributeTypes: attrs}
}

// ToObject writes the children of n found in v (an object value whose attributes include
// n's children) into a Kubernetes object. Null values are left out; unknown ones become Unknown.
// Computed (read-only) attributes are never written.
func ToObject(n *crdtree.Node, v tftypes.Value) (map[string]any, error) {
	out := map[string]any{}
	attrs := map[string]tftypes.Value{}
	if err := v.As(&attrs); err != nil {
		return nil, err
	}
	for _, c := range n.Children {
		if c.Computed {
			continue
		}
		av, ok := attrs[c.Name]
		if !ok {
			continue
		}
		val, present, err := toK8s(c, av)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		if present {
			crdtree.SetPath(out, c.Path, val)
		}
	}
	return out, nil
}

func toK8s(n *crdtree.Node, v tftypes.Value) (any, bool, error) {
	if v.IsNull() {
		return nil, false, nil
	}
	if !v.IsKnown() {
		return crdtree.Unknown{}, true, nil
	}
	switch n.Kind {
	case crdtree.String:
		var s string
		err := v.As(&s)
		return s, true, err
	case crdtree.Int64, crdtree.Float64:
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, false, err
		}
		if n.Kind == crdtree.Int64 {
			i, _ := f.Int64()
			return i, true, nil
		}
		x, _ := f.Float64()
		return x, true, nil
	case crdtree.Bool:
		var b bool
		err := v.As(&b)
		return b, true, err
	case crdtree.Object:
		m, err := ToObject(n, v)
		return m, true, err
	case crdtree.ObjectList:
		var elems []tftypes.Value
		if err := v.As(&elems); err != nil {
			return nil, false, err
		}
		out := make([]any, 0, len(elems))
		for _, e := range elems {
			if !e.IsKnown() {
				out = append(out, crdtree.Unknown{})
				continue
			}
			m, err := ToObject(n, e)
			if err != nil {
				return nil, false, err
			}
			out = append(out, m)
		}
		return out, true, nil
	case crdtree.StringList:
		var elems []tftypes.Value
		if err := v.As(&elems); err != nil {
			return nil, false, err
		}
		out := make([]any, 0, len(elems))
		for _, e := range elems {
			s, _, err := toK8s(&crdtree.Node{Kind: crdtree.String}, e)
			if err != nil {
				return nil, false, err
			}
			out = append(out, s)
		}
		return out, true, nil
	case crdtree.StringMap:
		elems := map[string]tftypes.Value{}
		if err := v.As(&elems); err != nil {
			return nil, false, err
		}
		out := make(map[string]any, len(elems))
		for k, e := range elems {
			s, _, err := toK8s(&crdtree.Node{Kind: crdtree.String}, e)
			if err != nil {
				return nil, false, err
			}
			out[k] = s
		}
		return out, true, nil
	}
	return nil, false, fmt.Errorf("unsupported kind %d", n.Kind)
}

// FromObject reads the values of n's children from a Kubernetes object. With full unset, it
// projects the object onto prior (the previous state): only attributes that prior holds are
// read, so server defaults and fields other managers set never show up as differences, while
// a change to a managed field does. With full set (import), every field is read.
// Read-only attributes are always read in full.
func FromObject(n *crdtree.Node, obj map[string]any, prior tftypes.Value, full bool) (map[string]tftypes.Value, error) {
	priorAttrs := map[string]tftypes.Value{}
	if !prior.IsNull() && prior.IsKnown() {
		if err := prior.As(&priorAttrs); err != nil {
			return nil, err
		}
	}
	out := make(map[string]tftypes.Value, len(n.Children))
	for _, c := range n.Children {
		p, ok := priorAttrs[c.Name]
		if !ok {
			p = tftypes.NewValue(Type(c), nil)
		}
		v, err := fromK8s(c, crdtree.GetPath(obj, c.Path), p, full)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		out[c.Name] = v
	}
	return out, nil
}

func fromK8s(n *crdtree.Node, raw any, prior tftypes.Value, full bool) (tftypes.Value, error) {
	typ := Type(n)
	if _, ok := raw.(crdtree.Unknown); ok {
		return tftypes.NewValue(typ, tftypes.UnknownValue), nil
	}
	full = full || n.Computed
	if raw == nil || (!full && prior.IsNull()) {
		return tftypes.NewValue(typ, nil), nil
	}
	if !prior.IsKnown() {
		// A value planned as unknown is read in full.
		full = true
	}
	switch n.Kind {
	case crdtree.String:
		return tftypes.NewValue(typ, scalarString(raw)), nil
	case crdtree.Int64, crdtree.Float64:
		f, err := number(raw)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(typ, f), nil
	case crdtree.Bool:
		b, ok := raw.(bool)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("expected a boolean, got %T", raw)
		}
		return tftypes.NewValue(typ, b), nil
	case crdtree.Object:
		m, ok := raw.(map[string]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("expected an object, got %T", raw)
		}
		attrs, err := FromObject(n, m, prior, full)
		if err != nil {
			return tftypes.Value{}, err
		}
		return tftypes.NewValue(typ, attrs), nil
	case crdtree.ObjectList:
		items, ok := raw.([]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("expected a list, got %T", raw)
		}
		var priorElems []tftypes.Value
		if !prior.IsNull() && prior.IsKnown() {
			_ = prior.As(&priorElems)
		}
		elemType := objectType(n)
		out := make([]tftypes.Value, 0, len(items))
		for i, it := range items {
			if _, ok := it.(crdtree.Unknown); ok {
				out = append(out, tftypes.NewValue(elemType, tftypes.UnknownValue))
				continue
			}
			m, _ := it.(map[string]any)
			p := tftypes.NewValue(elemType, nil)
			elemFull := full
			if i < len(priorElems) && !full {
				p = priorElems[i]
			} else {
				elemFull = true // an element Terraform never wrote: show all of it
			}
			attrs, err := FromObject(n, m, p, elemFull)
			if err != nil {
				return tftypes.Value{}, err
			}
			out = append(out, tftypes.NewValue(elemType, attrs))
		}
		return tftypes.NewValue(typ, out), nil
	case crdtree.StringList:
		items, ok := raw.([]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("expected a list, got %T", raw)
		}
		out := make([]tftypes.Value, 0, len(items))
		for _, it := range items {
			out = append(out, stringValue(it))
		}
		return tftypes.NewValue(typ, out), nil
	case crdtree.StringMap:
		m, ok := raw.(map[string]any)
		if !ok {
			return tftypes.Value{}, fmt.Errorf("expected a map, got %T", raw)
		}
		out := make(map[string]tftypes.Value, len(m))
		for k, it := range m {
			out[k] = stringValue(it)
		}
		return tftypes.NewValue(typ, out), nil
	}
	return tftypes.Value{}, fmt.Errorf("unsupported kind %d", n.Kind)
}

func stringValue(v any) tftypes.Value {
	if _, ok := v.(crdtree.Unknown); ok {
		return tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	}
	return tftypes.NewValue(tftypes.String, scalarString(v))
}

// scalarString renders int-or-string values (resource quantities, percentages) as strings.
func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return x.String()
	default:
		return fmt.Sprint(x)
	}
}

func number(v any) (*big.Float, error) {
	switch x := v.(type) {
	case int64:
		return new(big.Float).SetInt64(x), nil
	case int:
		return new(big.Float).SetInt64(int64(x)), nil
	case float64:
		return big.NewFloat(x), nil
	case json.Number:
		f, _, err := big.ParseFloat(x.String(), 10, 64, big.ToNearestEven)
		return f, err
	}
	return nil, fmt.Errorf("expected a number, got %T", v)
}
