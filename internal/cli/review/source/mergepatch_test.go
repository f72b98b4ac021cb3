package source

import (
	"reflect"
	"testing"
)

// Kustomize patches custom resources as JSON merge patches: maps merge, lists are replaced,
// null deletes. Positions follow what the patch wrote.
func TestApplyPatch(t *testing.T) {
	base := &Object{Body: map[string]any{
		"spec": map[string]any{
			"weight":   int64(1),
			"limits":   map[string]any{"cpu": "10"},
			"template": map[string]any{"spec": map[string]any{"requirements": []any{"a", "b"}}},
		},
	}, Source: Source{Fields: Positions{
		PosKey([]string{"spec", "weight"}):                                {File: "base", Line: 2},
		PosKey([]string{"spec", "limits", "cpu"}):                         {File: "base", Line: 4},
		PosKey([]string{"spec", "template", "spec", "requirements", "1"}): {File: "base", Line: 8},
	}}}
	patch := map[string]any{"apiVersion": "karpenter.sh/v1", "kind": "NodePool", "spec": map[string]any{
		"weight":   nil,
		"limits":   map[string]any{"memory": "1Gi"},
		"template": map[string]any{"spec": map[string]any{"requirements": []any{"c"}}},
	}}
	pf := Positions{
		PosKey([]string{"spec", "limits", "memory"}):                      {File: "patch", Line: 3},
		PosKey([]string{"spec", "template", "spec", "requirements", "0"}): {File: "patch", Line: 6},
	}
	if !ApplyPatch(base, patch, pf) {
		t.Fatal("patch deleted the object")
	}
	want := map[string]any{"spec": map[string]any{
		"limits":   map[string]any{"cpu": "10", "memory": "1Gi"},
		"template": map[string]any{"spec": map[string]any{"requirements": []any{"c"}}},
	}}
	if !reflect.DeepEqual(base.Body, want) {
		t.Errorf("patched %#v", base.Body)
	}
	f := base.Source.Fields
	if _, ok := f[PosKey([]string{"spec", "weight"})]; ok {
		t.Error("deleted field keeps its position")
	}
	if f[PosKey([]string{"spec", "limits", "cpu"})].File != "base" || f[PosKey([]string{"spec", "limits", "memory"})].File != "patch" {
		t.Errorf("merged map positions %+v", f)
	}
	if _, ok := f[PosKey([]string{"spec", "template", "spec", "requirements", "1"})]; ok {
		t.Error("a replaced list keeps the positions of the old elements")
	}
	if ApplyPatch(base, map[string]any{"$patch": "delete"}, nil) {
		t.Error("$patch: delete must delete")
	}
}
