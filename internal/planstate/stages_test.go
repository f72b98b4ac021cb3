package planstate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Each stage's handle is taken only by the resource of that stage, so that the order NAP →
// node classes (AKSNodeClass, EC2NodeClass) → NodePool holds by construction: a resource reads only the stages before it.
// Tests (which may play any stage) are exempt.
func TestEachStageBelongsToOneResource(t *testing.T) {
	owner := map[string][]string{
		"NAP":         {"internal/resources/nap"},
		"NodeClasses": {"internal/resources/aksnodeclass", "internal/resources/ec2nodeclass"},
		"NodePools":   {"internal/resources/nodepool"},
	}
	root, err := filepath.Abs("..") // internal
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(filepath.Dir(root), p)
		rel = filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			// data.Plan.NodePools() and the like: a stage taken from a Board field named Plan.
			x, ok := sel.X.(*ast.SelectorExpr)
			if !ok || x.Sel.Name != "Plan" {
				return true
			}
			if want, ok := owner[sel.Sel.Name]; ok && !slices.ContainsFunc(want, func(w string) bool { return strings.HasPrefix(rel, w+"/") }) {
				t.Errorf("%s: takes the %s stage, which belongs to %s", fset.Position(call.Pos()), sel.Sel.Name, strings.Join(want, " and "))
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
