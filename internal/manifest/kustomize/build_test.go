package kustomize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type diskReader struct{ root string }

func (d diskReader) ReadFile(abs string) ([]byte, error) { return os.ReadFile(abs) }
func (d diskReader) Allowed(abs string) error {
	if r, err := filepath.Rel(d.root, abs); err != nil || strings.HasPrefix(r, "..") {
		return os.ErrPermission
	}
	return nil
}

// The overlay builds as kustomize build builds it: the component's JSON 6902 patch, the
// overlay's JSON 6902 patch file, the generated ConfigMap and the replacement from it; each
// resource names the file it came from.
func TestBuildOverlay(t *testing.T) {
	root, _ := filepath.Abs("../../cli/review/testdata/kustomize")
	res, err := Build(filepath.Join(root, "prod", "kustomization.yaml"), diskReader{root})
	if err != nil {
		t.Fatal(err)
	}
	var pool, cm *Resource
	for i, r := range res {
		switch r.Body["kind"] {
		case "NodePool":
			pool = &res[i]
		case "ConfigMap":
			cm = &res[i]
		}
	}
	if pool == nil || cm == nil || len(res) != 3 {
		t.Fatalf("resources %+v", res)
	}
	spec := pool.Body["spec"].(map[string]any)
	limits := spec["limits"].(map[string]any)
	if spec["weight"] != int64(50) || limits["cpu"] != "64" || limits["memory"] != "400Gi" {
		t.Errorf("pool spec %v", spec)
	}
	if op := spec["template"].(map[string]any)["spec"].(map[string]any)["requirements"].([]any)[0].(map[string]any)["operator"]; op != "NotIn" {
		t.Errorf("operator %v", op)
	}
	if pool.Origin != filepath.Join(root, "base", "pools.yaml") {
		t.Errorf("origin %q", pool.Origin)
	}
	if _, ok := pool.Body["metadata"].(map[string]any)["annotations"]; ok {
		t.Errorf("build annotations left in %v", pool.Body["metadata"])
	}
	if cm.Origin != "" || cm.ConfiguredIn != filepath.Join(root, "prod", "kustomization.yaml") {
		t.Errorf("generated ConfigMap origin %q configured in %q", cm.Origin, cm.ConfiguredIn)
	}
	kinds := map[string]bool{}
	for _, tr := range pool.Transformations {
		kinds[tr.Kind] = true
	}
	if !kinds["PatchTransformer"] || !kinds["ReplacementTransformer"] {
		t.Errorf("transformations %+v", pool.Transformations)
	}
}

// Reads outside the allowed tree fail the build; nothing is written.
func TestBuildIsConfined(t *testing.T) {
	root, _ := filepath.Abs("../../cli/review/testdata/kustomize/prod")
	if _, err := Build(filepath.Join(root, "kustomization.yaml"), diskReader{root}); err == nil {
		t.Fatal("the base outside the allowed tree was read")
	}
}
