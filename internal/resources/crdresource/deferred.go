package crdresource

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// deferredErrors finds what the API server would reject once the errors in errs are fixed.
// After an error of the OpenAPI schema that blocks CEL (an unsupported enum value, a missing
// required field, a string or list too long), the API server checks no CEL rule at all and
// says so, so a second mistake would show only after the first is fixed. Here each blocking
// value is replaced by one the schema accepts (the first allowed value, a truncation, a zero
// value for a missing field) and the object validated again; what that run finds elsewhere is
// reported too. Findings on, inside or around a replaced value are left out: they would judge
// the stand-in, not the configuration. Nothing is returned when the stand-ins do not clear the
// blocking errors.
func (r *Resource) deferredErrors(ctx context.Context, known map[string]any, errs field.ErrorList) field.ErrorList {
	if !slices.ContainsFunc(errs, blocksCEL) {
		return nil
	}
	patched := runtime.DeepCopyJSON(known)
	var touched [][]string
	for _, e := range errs {
		if !blocksCEL(e) {
			continue
		}
		segs := crdtree.ParseFieldPath(e.Field)
		if len(segs) == 0 || !r.standIn(patched, segs, e) {
			return nil
		}
		touched = append(touched, segs)
	}
	again := r.validatorFor(patched).Validate(ctx, patched)
	if slices.ContainsFunc(again, blocksCEL) {
		return nil
	}
	seen := map[string]bool{}
	for _, e := range errs {
		seen[e.Error()] = true
	}
	var out field.ErrorList
	for _, e := range again {
		segs := crdtree.ParseFieldPath(e.Field)
		if e.Field == "<nil>" || e.Field == "" || seen[e.Error()] ||
			slices.ContainsFunc(touched, func(t []string) bool { return crdtree.Related(t, segs) }) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// blocksCEL is the API server's hasBlockingErr: after such an error it skips CEL evaluation.
func blocksCEL(e *field.Error) bool {
	switch e.Type {
	case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
		return true
	}
	return false
}

// standIn replaces the value at segs in obj by one its schema accepts; false when it cannot.
func (r *Resource) standIn(obj map[string]any, segs []string, e *field.Error) bool {
	s := schemaAt(r.validator.Schema, segs)
	if s == nil {
		return false
	}
	var v any
	switch e.Type {
	case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTypeInvalid:
		var ok bool
		if v, ok = zeroFor(s); !ok {
			return false
		}
	case field.ErrorTypeTooLong, field.ErrorTypeTooMany:
		cur, ok := getAt(obj, segs)
		if !ok {
			return false
		}
		switch c := cur.(type) {
		case string:
			if s.MaxLength == nil {
				return false
			}
			v = c[:min(len(c), int(*s.MaxLength))]
		case []any:
			if s.MaxItems == nil {
				return false
			}
			v = c[:min(len(c), int(*s.MaxItems))]
		default:
			return false
		}
	}
	return setAt(obj, segs, v)
}

// zeroFor is a value of the schema's type that its enum (if any) allows.
func zeroFor(s *apiextensionsv1.JSONSchemaProps) (any, bool) {
	if len(s.Enum) > 0 {
		var v any
		err := json.Unmarshal(s.Enum[0].Raw, &v)
		return v, err == nil
	}
	switch s.Type {
	case "string":
		return "", true
	case "integer":
		return int64(0), true
	case "number":
		return float64(0), true
	case "boolean":
		return false, true
	case "object":
		return map[string]any{}, true
	case "array":
		return []any{}, true
	}
	return nil, false
}

// schemaAt is the schema of the field at segs (object properties, map values, list items).
func schemaAt(s *apiextensionsv1.JSONSchemaProps, segs []string) *apiextensionsv1.JSONSchemaProps {
	for _, seg := range segs {
		if s == nil {
			return nil
		}
		switch {
		case s.Type == "array":
			if s.Items == nil {
				return nil
			}
			s = s.Items.Schema
		case s.Properties != nil:
			p, ok := s.Properties[seg]
			if !ok {
				return nil
			}
			s = &p
		case s.AdditionalProperties != nil:
			s = s.AdditionalProperties.Schema
		default:
			return nil
		}
	}
	return s
}

func getAt(obj any, segs []string) (any, bool) {
	cur := obj
	for _, seg := range segs {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// setAt sets the value at segs; the parent must exist.
func setAt(obj map[string]any, segs []string, v any) bool {
	parent, ok := getAt(obj, segs[:len(segs)-1])
	if !ok {
		return false
	}
	last := segs[len(segs)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = v
		return true
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(p) {
			return false
		}
		p[i] = v
		return true
	}
	return false
}
