package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"text/template"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

const committed = "../../../templates/guides/findings.md.tmpl"

// The guide is generated and committed; a code added to or changed in the registry must reach
// it (and docs/guides/findings.md through make generate).
func TestCommittedGuideIsCurrent(t *testing.T) {
	want, err := Render(findings.All())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%v: run go generate ./internal/findings/docgen (or make generate)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale: run go generate ./internal/findings/docgen (or make generate) and commit the result", committed)
	}
}

// One section per code, with the registry's title and help, in code order.
func TestOneSectionPerCode(t *testing.T) {
	b, err := Render(findings.All())
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if !strings.HasPrefix(doc, "{{- /*") || !strings.Contains(doc, "-}}\n---\npage_title:") {
		t.Errorf("the guide must open with the generated-file comment and then the front matter:\n%.300s", doc)
	}
	if !strings.Contains(doc, `subcategory: "Guides"`) {
		t.Error("front matter lacks subcategory Guides")
	}
	last := -1
	for _, r := range findings.All() {
		heading := "\n## " + string(r.Code) + "\n"
		if n := strings.Count(doc, heading); n != 1 {
			t.Errorf("%s: %d sections, want 1", r.Code, n)
			continue
		}
		i := strings.Index(doc, heading)
		if i < last {
			t.Errorf("%s: section out of code order", r.Code)
		}
		last = i
		sec := doc[i:]
		if j := strings.Index(sec[1:], "\n## "); j >= 0 {
			sec = sec[:j+1]
		}
		for _, want := range []string{r.Title, r.Help, r.Name, r.Severity.String()} {
			if !strings.Contains(sec, want) {
				t.Errorf("%s: section lacks %q", r.Code, want)
			}
		}
		if !strings.Contains(doc, "](#"+strings.ToLower(string(r.Code))+")") {
			t.Errorf("%s: not linked from the table of codes", r.Code)
		}
	}
}

// The output is a template that tfplugindocs executes: text from the registry stays literal.
func TestTemplateDelimitersEscaped(t *testing.T) {
	b, err := Render([]findings.Rule{{Code: "KRP999", Name: "X", Title: "Uses {{ braces }}.", Help: "Help {{ .x }}."}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(strings.TrimPrefix(string(b), header), "{{ braces") {
		t.Errorf("unescaped delimiters:\n%s", b)
	}
}

// tfplugindocs executes the guide with its own functions; it must parse as such a template.
func TestGuideParsesAsDocTemplate(t *testing.T) {
	b, err := Render(findings.All())
	if err != nil {
		t.Fatal(err)
	}
	stub := func(...string) string { return "" }
	tmpl, err := template.New("guide").Funcs(template.FuncMap{"tffile": stub, "codefile": stub}).Parse(string(b))
	if err != nil {
		t.Fatalf("the guide is not a valid template: %v", err)
	}
	var out strings.Builder
	if err := tmpl.Execute(&out, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "---\npage_title:") {
		t.Errorf("rendered guide must start with its front matter:\n%.200s", out.String())
	}
}
