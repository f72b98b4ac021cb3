package review

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// The fuzz targets exercise the readers of untrusted input directly (a target that ran the
// whole review per input would spend its time in validation and barely explore the parsers).
// `make fuzz` runs each for a bounded time in CI; the seeds are the test fixtures.

func addFixtureSeeds(f *testing.F, exts ...string) {
	_ = filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
					f.Add(b)
				}
			}
		}
		return nil
	})
}

// The YAML stream reader: findings stay within the input's lines, documents are split
// without losing a byte, and what is parsed can be classified and read as a kustomization.
func FuzzParseYAMLStream(f *testing.F) {
	addFixtureSeeds(f, ".yaml", ".yml")
	f.Add([]byte("a: {{ .x }}\n---\nb: [\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: karpenter.sh/v1, kind: NodePool, metadata: {name: a}}]\n"))
	f.Add([]byte("x: &a [*a]\n<<: {kind: NodePool}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		chunks, _ := manifest.Split("f.yaml", data)
		for _, c := range chunks {
			if c.Line < 1 || c.Line+bytes.Count(c.Text, []byte("\n"))-1 > lines {
				t.Fatalf("document at lines %d+%d of %d", c.Line, bytes.Count(c.Text, []byte("\n")), lines)
			}
		}
		docs, probs := source.ParseYAMLStream("f.yaml", data)
		for _, p := range probs {
			if p.Line < 1 || p.Line > lines {
				t.Fatalf("finding at line %d of %d: %+v", p.Line, lines, p)
			}
		}
		for _, d := range docs {
			if d.Line < 1 || d.Line > lines {
				t.Fatalf("document at line %d of %d", d.Line, lines)
			}
			objs, _ := source.ObjectsOf("f.yaml", d)
			for _, o := range objs {
				_ = o.Label()
			}
		}
		_, _ = source.AsKustomization("/repo/kustomization.yaml", docs)
	})
}

// The plan reader: any JSON, plan-shaped or not, gives objects or findings, never a panic.
func FuzzParsePlan(f *testing.F) {
	addFixtureSeeds(f, ".json")
	f.Add([]byte(`{"format_version": "1.2", "resource_changes": [{"address": "karpenter_nodepool.a", "mode": "managed", "type": "karpenter_nodepool", "change": {"actions": ["create"], "after": {"template": 5}}}]}`))
	f.Add([]byte(`{"format_version": "1.2", "planned_values": {"root_module": {"resources": [{"address": "karpenter_aksnodeclass.x", "mode": "managed", "type": "karpenter_aksnodeclass", "values": {"metadata": [{"name": "x"}]}}]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !source.LooksLikePlan(data) {
			return
		}
		objs, _, _ := source.ParsePlan("plan.json", data)
		for _, o := range objs {
			_ = o.Label()
		}
	})
}

// Requirement parsing as the competing-pools check does it (Karpenter's scheduling package on
// values nobody validated): never a panic, and equal pools are judged alike.
func FuzzRequirements(f *testing.F) {
	f.Add("karpenter.azure.com/sku-cpu", "Gt", "4", "", "tier", "web")
	f.Add("kubernetes.io/arch", "In", "amd64", "arm64", "", "")
	f.Add("k", "Lte", "-9223372036854775808", "", "k", "1")
	f.Add("k", "DoesNotExist", "", "", "k", "")
	f.Fuzz(func(t *testing.T, key, op, v1, v2, labelKey, labelValue string) {
		values := []any{}
		for _, v := range []string{v1, v2} {
			if v != "" {
				values = append(values, v)
			}
		}
		a := pool("a", nil, []any{req(key, op, values...)}, nil)
		b := pool("b", nil, []any{req(key, op, values...)}, nil)
		if labelKey != "" {
			labelled(b, labelKey, labelValue)
		}
		first := checks.CheckEqualWeights(t.Context(), &assemble.Cluster{NodePools: []*source.Object{a, b}})
		again := checks.CheckEqualWeights(t.Context(), &assemble.Cluster{NodePools: []*source.Object{pool("a", nil, []any{req(key, op, values...)}, nil), b}})
		if len(first) != len(again) {
			t.Fatalf("equal pools judged differently: %d and %d findings", len(first), len(again))
		}
	})
}

// The text report's escaping: nothing a terminal or a CI log would act on survives.
func FuzzEscapeText(f *testing.F) {
	f.Add("::error file=a::x\n::warning::y\x1b[2J\u202e##[error]")
	f.Add("  ::x")
	f.Add("ok \xff")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{report.EscapeText(s), report.EscapeLead(s), report.EscapePath(s)} {
			if !utf8.ValidString(out) || strings.Contains(out, "##[") {
				t.Fatalf("%q -> %q", s, out)
			}
			for _, r := range out {
				if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
					t.Fatalf("%q -> %q keeps %U", s, out, r)
				}
			}
		}
		for _, out := range []string{report.EscapeLead(s), report.EscapePath(s)} {
			if strings.HasPrefix(strings.TrimLeft(out, " \t"), "::") {
				t.Fatalf("%q -> %q starts a workflow command", s, out)
			}
		}
	})
}
