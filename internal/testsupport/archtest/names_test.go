package archtest

import (
	"os/exec"
	"path"
	"strings"
	"testing"
)

// TestNoNamesDifferByATrailingS keeps package names telling apart what they are: a domain
// package and a Terraform one named instancetype and instancetypes were read as one another.
func TestNoNamesDifferByATrailingS(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{.Name}}", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	byName := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		importPath, name, _ := strings.Cut(line, " ")
		byName[name] = append(byName[name], importPath)
		byName[path.Base(importPath)] = append(byName[path.Base(importPath)], importPath)
	}
	for name, paths := range byName {
		if other, ok := byName[name+"s"]; ok {
			t.Errorf("%q (%s) and %q (%s) differ only by a trailing s", name, strings.Join(paths, ", "), name+"s", strings.Join(other, ", "))
		}
	}
	if len(byName) < 20 {
		t.Fatalf("go list found only %d names; the check would prove nothing", len(byName))
	}
}
