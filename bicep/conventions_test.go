package bicep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Azure Verified Modules describe every parameter, output and type property, starting with
// "Required." or "Optional.", and describe every exported symbol.
func TestEveryParameterOutputAndPropertyIsDescribed(t *testing.T) {
	checked := 0
	for _, f := range bicepFiles(t) {
		if !strings.HasSuffix(f, ".bicep") {
			continue
		}
		for _, d := range scan(t, f) {
			desc, ok := d.description()
			switch {
			case d.keyword == "param" || d.keyword == "output" || d.keyword == "property":
				checked++
				if !ok {
					t.Errorf("%s:%d: %s %s has no @description", d.file, d.line, d.keyword, d.name)
				} else if !strings.HasPrefix(desc, "Required. ") && !strings.HasPrefix(desc, "Optional. ") {
					t.Errorf("%s:%d: the description of %s %s must start with \"Required. \" or \"Optional. \": %q", d.file, d.line, d.keyword, d.name, desc)
				}
			case hasDecorator(d, "@export()"):
				checked++
				if !ok || strings.TrimSpace(desc) == "" {
					t.Errorf("%s:%d: exported %s %s has no @description", d.file, d.line, d.keyword, d.name)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d declarations checked: the scanner misses declarations", checked)
	}
}

// A property's Required./Optional. must agree with its type: a nullable type (T?) is optional.
func TestPropertyPrefixMatchesNullability(t *testing.T) {
	for _, f := range bicepFiles(t) {
		for _, d := range scan(t, f) {
			if d.keyword != "property" {
				continue
			}
			desc, _ := d.description()
			nullable := strings.HasSuffix(strings.TrimSpace(d.rest), "?")
			// Multi-line object and array types end on a later line; find their closing token.
			if strings.HasSuffix(strings.TrimSpace(d.rest), "{") {
				nullable = closingNullable(t, d)
			}
			if strings.HasPrefix(desc, "Optional. ") != nullable {
				t.Errorf("%s:%d: %s.%s is described %q but its type is %snullable", d.file, d.line, d.inType, d.name, strings.SplitN(desc, ".", 2)[0], map[bool]string{true: "", false: "not "}[nullable])
			}
		}
	}
}

// closingNullable finds the line that closes the multi-line type starting at d and says
// whether it ends in '?'.
func closingNullable(t *testing.T, d decl) bool {
	t.Helper()
	data, err := os.ReadFile(d.file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	depth := 0
	for i := d.line - 1; i < len(lines); i++ {
		l, _ := stripComments(lines[i], false)
		depth += nesting(l)
		if depth == 0 {
			return strings.HasSuffix(strings.TrimSpace(l), "?")
		}
	}
	t.Fatalf("%s:%d: unterminated type", d.file, d.line)
	return false
}

func hasDecorator(d decl, dec string) bool {
	for _, x := range d.decorators {
		if x == dec {
			return true
		}
	}
	return false
}

// Each module follows the AVM layout: main.bicep, README.md, version.json with a
// MAJOR.MINOR version, and at least one tests/e2e/*/main.test.bicep.
func TestModuleLayout(t *testing.T) {
	dirs, err := filepath.Glob("modules/*")
	if err != nil || len(dirs) != 4 {
		t.Fatalf("want the 4 modules, got %v (%v)", dirs, err)
	}
	for _, dir := range dirs {
		for _, f := range []string{"main.bicep", "README.md", "version.json"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("%s: %v", dir, err)
			}
		}
		var v struct {
			Schema  string `json:"$schema"`
			Version string `json:"version"`
		}
		if data, err := os.ReadFile(filepath.Join(dir, "version.json")); err == nil {
			if err := json.Unmarshal(data, &v); err != nil {
				t.Errorf("%s/version.json: %v", dir, err)
			}
			if !regexp.MustCompile(`^\d+\.\d+$`).MatchString(v.Version) {
				t.Errorf("%s/version.json: version %q is not MAJOR.MINOR", dir, v.Version)
			}
		}
		tests, _ := filepath.Glob(filepath.Join(dir, "tests", "e2e", "*", "main.test.bicep"))
		if len(tests) == 0 {
			t.Errorf("%s: no tests/e2e/*/main.test.bicep", dir)
		}
		// The README documents every parameter and output of main.bicep by name.
		readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
		for _, d := range scan(t, filepath.Join(dir, "main.bicep")) {
			if (d.keyword == "param" || d.keyword == "output") && !strings.Contains(string(readme), "`"+d.name+"`") {
				t.Errorf("%s/README.md does not document %s `%s`", dir, d.keyword, d.name)
			}
		}
	}
}

// Every path a Bicep file names (modules, imports, loadYamlContent and friends, a
// .bicepparam's using) exists, relative to the file, as Bicep resolves it.
func TestFileReferencesResolve(t *testing.T) {
	refs := 0
	for _, f := range bicepFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		var paths []string
		for _, d := range scan(t, f) {
			switch d.keyword {
			case "module":
				if m := regexp.MustCompile(`^'([^']+)'`).FindStringSubmatch(d.rest); m != nil {
					paths = append(paths, m[1])
				}
			case "import":
				if m := regexp.MustCompile(`from\s+'([^']+)'`).FindStringSubmatch(d.rest); m != nil {
					paths = append(paths, m[1])
				}
			case "using":
				if m := regexp.MustCompile(`^'([^']+)'`).FindStringSubmatch(d.rest); m != nil {
					paths = append(paths, m[1])
				}
			}
		}
		for _, fn := range []string{"loadYamlContent", "loadJsonContent", "loadTextContent", "loadFileAsBase64"} {
			paths = append(paths, stringArgs(text, fn)...)
		}
		for _, p := range paths {
			if strings.HasPrefix(p, "br:") || strings.HasPrefix(p, "br/") || strings.HasPrefix(p, "ts:") {
				continue
			}
			refs++
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), filepath.FromSlash(p))); err != nil {
				t.Errorf("%s references %s, which does not exist", f, p)
			}
		}
	}
	if refs < 10 {
		t.Fatalf("only %d file references found", refs)
	}
}

// A .bicepparam file sets only parameters its template declares and every parameter the
// template requires (no default, not nullable).
func TestParameterFilesMatchTheirTemplates(t *testing.T) {
	n := 0
	for _, f := range bicepFiles(t) {
		if !strings.HasSuffix(f, ".bicepparam") {
			continue
		}
		n++
		var target string
		set := map[string]bool{}
		for _, d := range scan(t, f) {
			switch d.keyword {
			case "using":
				target = filepath.Join(filepath.Dir(f), strings.Trim(strings.TrimSpace(d.rest), "'"))
			case "param":
				set[d.name] = true
			}
		}
		if target == "" {
			t.Errorf("%s has no using", f)
			continue
		}
		declared := map[string]bool{}
		for _, d := range scan(t, target) {
			if d.keyword != "param" {
				continue
			}
			declared[d.name] = true
			required := !strings.Contains(d.rest, "=") && !strings.HasSuffix(strings.TrimSpace(d.rest), "?")
			if required && !set[d.name] {
				t.Errorf("%s does not set %s, which %s requires", f, d.name, target)
			}
		}
		for p := range set {
			if !declared[p] {
				t.Errorf("%s sets %s, which %s does not declare", f, p, target)
			}
		}
	}
	if n < 2 {
		t.Fatalf("want .bicepparam examples for several clusters, found %d", n)
	}
}
