package source

import (
	"reflect"
	"strings"
)

// ApplyPatch merges a strategic-merge patch into an object as Kustomize does for custom
// resources: their CRDs carry no patch strategy, so Kustomize falls back to a JSON merge
// patch (RFC 7386) in which maps merge, lists are replaced and null deletes. The positions of
// what the patch wrote point into the patch, the rest keep pointing at the base.
// It reports false when the patch deletes the object ($patch: delete).
func ApplyPatch(o *Object, patch map[string]any, pf Positions) bool {
	if d, _ := patch["$patch"].(string); d == "delete" {
		return false
	}
	if o.Source.Patched == nil {
		o.Source.Patched = Positions{}
	}
	mergeInto(o.Body, patch, nil, o.Source.Fields, pf, o.Source.Patched)
	return true
}

func mergeInto(dst, patch map[string]any, at []string, fields, pf, patched Positions) {
	for k, pv := range patch {
		if strings.HasPrefix(k, "$") || (len(at) == 0 && (k == "apiVersion" || k == "kind")) {
			continue // merge directives, and the type meta that only selects the target
		}
		p := append(append([]string(nil), at...), k)
		if pv == nil {
			delete(dst, k)
			fields.Drop(p)
			patched.Drop(p)
			continue
		}
		if old, ok := dst[k]; ok && reflect.DeepEqual(old, pv) {
			continue // the value was already there (metadata.name, which selects the target): the base wrote it
		}
		pm, pIsMap := pv.(map[string]any)
		dm, dIsMap := dst[k].(map[string]any)
		if pIsMap && dIsMap {
			if at, ok := pf[PosKey(p)]; ok && len(pm) > 0 {
				patched[PosKey(p)] = at
			}
			mergeInto(dm, pm, p, fields, pf, patched)
			continue
		}
		if pIsMap {
			// A map replacing a non-map is the patch without its nulls.
			dm = map[string]any{}
			mergeInto(dm, pm, p, Positions{}, Positions{}, Positions{})
			pv = dm
		}
		dst[k] = DeepCopy(pv)
		fields.Drop(p)
		fields.CopyFrom(pf, p)
		patched.Drop(p)
	}
}

// DeepCopy copies the maps and lists of a decoded value; scalars are immutable.
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = DeepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = DeepCopy(e)
		}
		return l
	}
	return v
}
