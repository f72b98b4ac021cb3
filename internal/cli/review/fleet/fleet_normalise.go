package fleet

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
)

// The group comparison compares normalised values: each object's spec with the API server's
// defaults, flattened into field paths, lists as sets and quantities canonical, so that only
// what the cluster would act on differently counts as a difference.

// normalisedSpec is the object's spec as the API server stores it (its defaults applied)
// without the values known only after apply, whose field paths it returns.
func normalisedSpec(o *source.Object) (map[string]any, []string) {
	known, unknownPaths := crdtree.StripUnknown(checks.WithoutNamespace(o.Body))
	if v, err := crdvalidate.For(o.GVK); err == nil {
		v.Default(known)
	}
	spec, _ := known["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
	}
	var unknown []string
	for _, p := range unknownPaths {
		unknown = append(unknown, strings.Join(p, "."))
	}
	return spec, unknown
}

// under reports whether a path of paths is field, inside it, or holds it.
func under(paths []string, field string) bool {
	return slices.ContainsFunc(paths, func(p string) bool {
		return p == field || strings.HasPrefix(p, field+".") || strings.HasPrefix(field, p+".")
	})
}

// dropUnknown leaves out the fields that hold a value known only after apply in any member.
func dropUnknown(values map[string]string, unknown []string) map[string]string {
	for k := range values {
		if under(unknown, k) {
			delete(values, k)
		}
	}
	return values
}

// limitsOf is the pool's limits by resource, each quantity in its canonical form.
func limitsOf(spec map[string]any) map[string]string {
	l, _ := spec["limits"].(map[string]any)
	out := map[string]string{}
	for k, v := range l {
		out[k] = canonicalQuantity(v)
	}
	return out
}

func canonicalQuantity(v any) string {
	s := checks.Show(v)
	if q, err := resource.ParseQuantity(s); err == nil {
		return q.String()
	}
	return s
}

// requirementsOf is the pool's requirements by key: operator, values (sorted) and minValues of
// each requirement on the key, sorted.
func requirementsOf(spec map[string]any, regional bool) map[string]string {
	tmpl, _ := spec["template"].(map[string]any)
	ts, _ := tmpl["spec"].(map[string]any)
	reqs, _ := ts["requirements"].([]any)
	byKey := map[string][]string{}
	for _, r := range reqs {
		rm, _ := r.(map[string]any)
		key := checks.Show(rm["key"])
		if regional && slices.Contains(regionalKeys, key) {
			continue
		}
		var vals []string
		vs, _ := rm["values"].([]any)
		for _, v := range vs {
			vals = append(vals, checks.Show(v))
		}
		slices.Sort(vals)
		vals = slices.Compact(vals)
		d := checks.Show(rm["operator"])
		if len(vals) > 0 {
			d += " [" + strings.Join(vals, ", ") + "]"
		}
		if mv := rm["minValues"]; mv != nil {
			d += fmt.Sprintf(" minValues %v", mv)
		}
		byKey[key] = append(byKey[key], d)
	}
	out := map[string]string{}
	for k, ds := range byKey {
		slices.Sort(ds)
		out[k] = strings.Join(ds, "; ")
	}
	return out
}

// withoutPoolParts is the pool's spec without what KRP321 and KRP322 compare.
func withoutPoolParts(spec map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range spec {
		if k != "limits" {
			out[k] = v
		}
	}
	if tmpl, ok := out["template"].(map[string]any); ok {
		t := map[string]any{}
		for k, v := range tmpl {
			t[k] = v
		}
		if ts, ok := t["spec"].(map[string]any); ok {
			s := map[string]any{}
			for k, v := range ts {
				if k != "requirements" {
					s[k] = v
				}
			}
			t["spec"] = s
		}
		out["template"] = t
	}
	return out
}

// leaves flattens a spec into field paths and values: maps are descended into, anything else
// (a list among them, compared as a set of its elements) is one value.
func leaves(v map[string]any, at string) map[string]string {
	out := map[string]string{}
	var walk func(v any, at string)
	walk = func(v any, at string) {
		switch x := v.(type) {
		case map[string]any:
			if slices.ContainsFunc(slices.Collect(maps.Keys(x)), func(k string) bool { return strings.ContainsAny(k, "./") }) {
				out[at] = CanonicalJSON(x) // labels, annotations, tags: one value, keys that are no field names
				return
			}
			for k, e := range x {
				walk(e, at+"."+k)
			}
		case []any:
			var elems []string
			for _, e := range x {
				elems = append(elems, CanonicalJSON(e))
			}
			slices.Sort(elems)
			out[at] = "[" + strings.Join(elems, ", ") + "]"
		default:
			out[at] = CanonicalJSON(x)
		}
	}
	for k, e := range v {
		walk(e, at+"."+k)
	}
	return out
}

// CanonicalJSON renders a value with sorted keys (encoding/json sorts map keys).
func CanonicalJSON(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
