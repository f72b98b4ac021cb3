package bicep

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// What `bicep build` and `bicep lint` would report, as far as a line scanner can tell; the
// rules are read from the Bicep compiler's source (Azure/bicep, see each test).

// A @maxLength(0) parameter accepts no value, and any interpolated string given to it is error
// BCP332 (TypeAssignmentVisitor.VisitStringSyntax: an interpolation's minimum length is the sum
// of its literal parts). fail() (Bicep 0.33) is how a module rejects a value instead.
func TestNoParameterAcceptsNothing(t *testing.T) {
	for _, f := range bicepFiles(t) {
		for _, d := range scan(t, f) {
			if d.keyword == "param" && hasDecorator(d, "@maxLength(0)") {
				t.Errorf("%s:%d: param %s accepts no value (BCP332 for any interpolated argument); fail() the deployment instead", f, d.line, d.name)
			}
		}
	}
}

// Every parameter a .bicep file declares is used in it (lint rule no-unused-params).
func TestEveryParameterIsUsed(t *testing.T) {
	for _, f := range bicepFiles(t) {
		if !strings.HasSuffix(f, ".bicep") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range scan(t, f) {
			if d.keyword != "param" {
				continue
			}
			uses := regexp.MustCompile(`\b`+regexp.QuoteMeta(d.name)+`\b`).FindAllStringIndex(string(data), -1)
			if len(uses) < 2 {
				t.Errorf("%s:%d: param %s is never used (no-unused-params)", f, d.line, d.name)
			}
		}
	}
}

// An explicit any type (Bicep 0.38, NoExplicitAnyRule) is preceded by the directive that
// silences the linter's warning on it.
func TestExplicitAnyIsDeclaredToTheLinter(t *testing.T) {
	anyType := regexp.MustCompile(`:\s*any\??\s*$`)
	found := 0
	for _, f := range bicepFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for i, l := range lines {
			if !anyType.MatchString(l) {
				continue
			}
			found++
			if i == 0 || strings.TrimSpace(lines[i-1]) != "#disable-next-line no-explicit-any" {
				t.Errorf("%s:%d: explicit any without #disable-next-line no-explicit-any", f, i+1)
			}
		}
	}
	if found == 0 {
		t.Fatal("no explicit any found: the NodePool's limits map has one")
	}
}

// The READMEs' module references are registry references Bicep parses (br:<registry>/<path>:<tag>,
// OciArtifactReference; or br/<alias>:<path>:<tag>), with a semantic-version tag, and the resource
// types they name are the ones the code declares.
func TestReadmesSayWhatTheCodeDoes(t *testing.T) {
	ref := regexp.MustCompile(`module \w+ '([^']+)'`)
	valid := regexp.MustCompile(`^(br:[^/:']+\.azurecr\.io|br/[A-Za-z0-9_-]+:)[a-z0-9._/<>-]+:\d+\.\d+\.\d+$`)
	kubeType := regexp.MustCompile("`(kubernetes:[^`]+)`")
	readmes, _ := filepath.Glob("modules/*/README.md")
	refs := 0
	for _, r := range readmes {
		data, err := os.ReadFile(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ref.FindAllStringSubmatch(string(data), -1) {
			refs++
			if !valid.MatchString(m[1]) {
				t.Errorf("%s: module reference %q is not br:<registry>.azurecr.io/<path>:<major.minor.patch>", r, m[1])
			}
		}
		code, _ := os.ReadFile(filepath.Join(filepath.Dir(r), "main.bicep"))
		for _, m := range kubeType.FindAllStringSubmatch(string(data), -1) {
			if !strings.Contains(string(code), "'"+m[1]+"'") {
				t.Errorf("%s names resource type %s, which main.bicep does not declare", r, m[1])
			}
		}
	}
	if refs < 3 {
		t.Fatalf("only %d module references found", refs)
	}
}

// The YAML files a parameter description names as the typical value exist among the examples.
func TestDescriptionsNameExistingFiles(t *testing.T) {
	yamlFile := regexp.MustCompile(`pools/[A-Za-z0-9_-]+\.yaml`)
	for _, f := range []string{"modules/karpenter-nodepool/main.bicep", "modules/karpenter-aksnodeclass/main.bicep"} {
		for _, d := range scan(t, f) {
			desc, _ := d.description()
			for _, p := range yamlFile.FindAllString(desc, -1) {
				if _, err := os.Stat(filepath.Join("examples", p)); err != nil {
					t.Errorf("%s:%d: the description of %s names %s, which examples/ does not have", f, d.line, d.name, p)
				}
			}
		}
	}
}

// Each version.json's pathFilters name files that are committed (no compiled main.json is).
func TestVersionPathFiltersExist(t *testing.T) {
	files, _ := filepath.Glob("modules/*/version.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			PathFilters []string `json:"pathFilters"`
		}
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		for _, p := range v.PathFilters {
			if m, _ := filepath.Glob(filepath.Join(filepath.Dir(f), filepath.FromSlash(p))); len(m) == 0 {
				t.Errorf("%s: pathFilter %s matches no file", f, p)
			}
		}
	}
}
