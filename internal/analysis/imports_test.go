package analysis

import (
	"go/build"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/karpenter-iac/terraform-provider-karpenter/"

// The analysis stays apart from the simulations, as Karpenter keeps its requirement algebra
// (pkg/scheduling) apart from its scheduler: no package the solver builds on, directly or
// through another of this module's packages, is a simulation's.
func TestAnalysisImportsNoSimulation(t *testing.T) {
	simulation := []string{"internal/simulation/optimal", "internal/simmodel", "internal/simulation", "internal/simulation/karpenter"}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{} // package -> the package that imports it
	queue := []string{"internal/analysis"}
	seen["internal/analysis"] = ""
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		pkg, err := build.ImportDir(filepath.Join(root, rel), 0)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		for _, imp := range pkg.Imports {
			dep, ok := strings.CutPrefix(imp, module)
			if !ok {
				continue
			}
			if _, done := seen[dep]; done {
				continue
			}
			seen[dep] = rel
			for _, s := range simulation {
				if dep == s || strings.HasPrefix(dep, s+"/") {
					t.Errorf("%s imports %s: the analysis must not depend on a simulation", rel, dep)
				}
			}
			queue = append(queue, dep)
		}
	}
}
