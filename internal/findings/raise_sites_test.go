package findings

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// repoRoot is the repository, seen from this package's directory.
const repoRoot = "../.."

// renderers are the structs that write a finding or a rule out in a report's layout (they read
// Finding.Severity or Rule.Severity; nothing is raised with them).
var renderers = map[string]bool{
	"internal/cli/review/report/report_json.go": true,
	"internal/cli/review/source/finding.go":     true,
}

// sourceFiles parses every non-test Go file of the repository outside this package.
func sourceFiles(t *testing.T) (*token.FileSet, map[string]*ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "internal/findings" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		files[rel] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 50 {
		t.Fatalf("found only %d Go files under %s", len(files), repoRoot)
	}
	return fset, files
}

// findingsName is the name the file imports this package as ("" when it does not).
func findingsName(f *ast.File) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); strings.HasSuffix(p, "/internal/findings") {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "findings"
		}
	}
	return ""
}

// codeConstants are the Code constants of this package, by identifier.
func codeConstants(t *testing.T) map[string]Code {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Code{}
	for _, f := range pkgs["findings"].Files {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				if id, ok := vs.Type.(*ast.Ident); !ok || id.Name != "Code" {
					continue
				}
				for i, n := range vs.Names {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
						v, _ := strconv.Unquote(lit.Value)
						out[n.Name] = Code(v)
					}
				}
			}
		}
	}
	if len(out) != len(registry) {
		t.Fatalf("%d Code constants, %d registered codes", len(out), len(registry))
	}
	return out
}

// Every finding's severity is read from the registry: no raise site sets one. The walk covers
// every non-test Go file of the repository. No composite literal sets a Severity next to a
// Code (the shape of a second finding type). No struct outside the renderers declares a
// severity field next to a code. As is only called with a severity constant, which As checks
// against the registry's documented alternatives.
func TestRaiseSitesTakeSeverityFromRegistry(t *testing.T) {
	fset, files := sourceFiles(t)
	for rel, f := range files {
		name := findingsName(f)
		if name == "" {
			continue
		}
		isSel := func(e ast.Expr, pkg string) (string, bool) {
			s, ok := e.(*ast.SelectorExpr)
			if !ok {
				return "", false
			}
			x, ok := s.X.(*ast.Ident)
			return s.Sel.Name, ok && x.Name == pkg
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				keys := map[string]ast.Expr{}
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok {
							keys[k.Name] = kv.Value
						}
					}
				}
				if _, hasCode := keys["Code"]; hasCode && keys["Severity"] != nil && !renderers[rel] {
					t.Errorf("%s: a finding literal sets its severity; take it from the registry (findings.New, Finding.As for a documented alternative)", fset.Position(n.Pos()))
				}
			case *ast.StructType:
				var code, sev bool
				for _, fld := range n.Fields.List {
					if s, ok := isSel(fld.Type, name); ok {
						code = code || s == "Code"
						sev = sev || s == "Severity"
					}
				}
				if code && sev && !renderers[rel] {
					t.Errorf("%s: a struct with a code and a severity is a second finding type; use findings.Finding (or wrap it with a position)", fset.Position(n.Pos()))
				}
			case *ast.CallExpr:
				if s, ok := n.Fun.(*ast.SelectorExpr); ok && s.Sel.Name == "As" && len(n.Args) == 1 {
					if sev, ok := isSel(n.Args[0], name); ok && sev != "Error" && sev != "Warning" && sev != "Note" {
						t.Errorf("%s: As(%s.%s): pass a severity constant, which As checks against the registry", fset.Position(n.Pos()), name, sev)
					}
				}
			}
			return true
		})
	}
}

// Every code raised anywhere (a findings.<Code> constant in a non-test file) has a registry
// entry with a severity, a title and help, and says who reports it; and every registered code
// is raised somewhere.
func TestEveryRaisedCodeIsRegistered(t *testing.T) {
	consts := codeConstants(t)
	_, files := sourceFiles(t)
	raised := map[Code][]string{}
	for rel, f := range files {
		name := findingsName(f)
		if name == "" {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == name {
					if c, ok := consts[s.Sel.Name]; ok {
						raised[c] = append(raised[c], rel)
					}
				}
			}
			return true
		})
	}
	for c, where := range raised {
		r, ok := Lookup(c)
		if !ok {
			t.Errorf("%s (raised in %s) has no registry entry", c, where[0])
			continue
		}
		if r.Title == "" || r.Help == "" || (!r.Reported.Plan && !r.Reported.Review) {
			t.Errorf("%s (raised in %s): the registry entry lacks a title, help or reporters", c, where[0])
		}
		if r.Severity < Note || r.Severity > Error {
			t.Errorf("%s: severity %v", c, r.Severity)
		}
	}
	for _, r := range All() {
		if len(raised[r.Code]) == 0 {
			t.Errorf("%s (%s) is registered but raised nowhere", r.Code, r.Name)
		}
	}
}
