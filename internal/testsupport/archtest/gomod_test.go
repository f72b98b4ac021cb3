package archtest

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// TestGoModMarksNoImportedModuleIndirect keeps go.mod saying what the code imports (`make
// tidy`): a module that a package of this module imports, in its code or its tests, is a
// direct requirement, never `// indirect`.
func TestGoModMarksNoImportedModuleIndirect(t *testing.T) {
	imports := goList(t, "-f", `{{join .Imports "\n"}}{{"\n"}}{{join .TestImports "\n"}}{{"\n"}}{{join .XTestImports "\n"}}`, "./...")
	seen := map[string]bool{}
	var external []string
	for _, p := range strings.Fields(imports) {
		// Standard-library paths have no dot in their first element; the module's own are not required.
		if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") && !strings.HasPrefix(p, module) && !seen[p] {
			seen[p] = true
			external = append(external, p)
		}
	}
	sort.Strings(external)
	args := append([]string{"-find", "-f", `{{with .Module}}{{.Path}} {{.Indirect}}{{end}}`}, external...)
	if len(external) == 0 {
		t.Fatal("go list found no imported module: the test would pass for nothing")
	}
	reported := map[string]bool{}
	for _, line := range strings.Split(goList(t, args...), "\n") {
		if path, marked, ok := strings.Cut(line, " "); ok && marked == "true" && !reported[path] {
			reported[path] = true
			t.Errorf("go.mod marks %s // indirect, but this module imports it: run make tidy", path)
		}
	}
}

func goList(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = "../../.."
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	return string(out)
}
