package kube

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// FieldChange is a field of the spec whose value differs between two reads of an object.
type FieldChange struct {
	Path          string // e.g. spec.limits.cpu
	Before, After any    // nil: absent
	// Managers are the field managers other than FieldManager that own the field (or a
	// field under it) in the later read: who most likely changed it.
	Managers []string
}

// SpecChanges compares the spec of before, the object as a plan was computed against, with
// the spec of after, the object as it is now, and returns the fields of before's spec whose
// value is different or gone in after, sorted by path. Lists are compared whole: a list
// item added, removed or changed is a change of the list. Fields only after has are not
// reported: no configuration sets them, so an apply leaves them alone.
func SpecChanges(before map[string]any, after *unstructured.Unstructured) []FieldChange {
	spec, _ := before["spec"].(map[string]any)
	var out []FieldChange
	walkLeaves(spec, []string{"spec"}, func(p []string, v any) {
		now, found, _ := unstructured.NestedFieldNoCopy(after.Object, p...)
		if !found {
			now = nil
		}
		if sameJSON(v, now) {
			return
		}
		out = append(out, FieldChange{Path: strings.Join(p, "."), Before: v, After: now, Managers: owners(after, p)})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// walkLeaves calls fn with every value under m that is not a map (lists are leaves).
func walkLeaves(m map[string]any, prefix []string, fn func([]string, any)) {
	for k, v := range m {
		p := append(slices.Clip(prefix), k)
		if sub, ok := v.(map[string]any); ok && len(sub) > 0 {
			walkLeaves(sub, p, fn)
			continue
		}
		fn(p, v)
	}
}

// sameJSON compares values as JSON, so that 10 (int64, as the API server decodes it) and
// 10.0 (float64, as a rendering of the state may hold it) are the same.
func sameJSON(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}

// owners returns the managers other than FieldManager whose main-resource entries own the
// field at p or a field under it, sorted.
func owners(obj *unstructured.Unstructured, p []string) []string {
	parts := make([]any, len(p))
	for i, s := range p {
		parts[i] = s
	}
	path, err := fieldpath.MakePath(parts...)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range obj.GetManagedFields() {
		if e.Manager == FieldManager || e.Subresource != "" || e.FieldsV1 == nil || slices.Contains(out, e.Manager) {
			continue
		}
		set, err := decodeFields(e)
		if err != nil {
			continue
		}
		owns := false
		set.Iterate(func(q fieldpath.Path) {
			if !owns && len(q) >= len(path) && q[:len(path)].Equals(path) {
				owns = true
			}
		})
		if owns {
			out = append(out, e.Manager)
		}
	}
	sort.Strings(out)
	return out
}
