package review

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
)

func compileSARIFSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	abs, err := filepath.Abs("testdata/sarif-2.1.0-subset.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // uri and uri-reference are assertions, as SARIF consumers treat them
	s, err := c.Compile(abs)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validateSARIF(t *testing.T, s *jsonschema.Schema, doc string) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	return s.Validate(inst)
}

// The SARIF log of both fixture repositories validates against the SARIF 2.1.0 schema subset,
// and what the schema cannot say holds too: each ruleIndex points at the rule of its ruleId,
// every result has a file location, and YAML findings carry their line.
func TestSARIF(t *testing.T) {
	schema := compileSARIFSchema(t)
	for _, dir := range []string{"testdata/single", "testdata/multi"} {
		r := run(t, "", "--format", "sarif", dir)
		if r.code != ExitFindings {
			t.Fatalf("%s: exit %d: %s", dir, r.code, r.stderr)
		}
		if err := validateSARIF(t, schema, r.stdout); err != nil {
			t.Fatalf("%s: SARIF does not validate: %v", dir, err)
		}
		var log report.SarifLog
		if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
			t.Fatal(err)
		}
		run0 := log.Runs[0]
		if len(run0.Results) == 0 {
			t.Fatalf("%s: no results", dir)
		}
		for _, res := range run0.Results {
			if rule := run0.Tool.Driver.Rules[res.RuleIndex]; rule.ID != res.RuleID {
				t.Errorf("result %s has ruleIndex %d, which is %s", res.RuleID, res.RuleIndex, rule.ID)
			}
			loc := res.Locations[0].PhysicalLocation
			if !strings.HasPrefix(loc.ArtifactLocation.URI, dir+"/") || loc.Region == nil || loc.Region.StartLine < 1 {
				t.Errorf("result %s: location %+v", res.RuleID, loc)
			}
			if res.PartialFingerprints["karpenterReview/v1"] == "" {
				t.Errorf("result %s has no fingerprint", res.RuleID)
			}
		}
	}
	// KRP201 of the single repository, in full.
	r := run(t, "", "--format", "sarif", "testdata/single")
	for _, want := range []string{`"ruleId": "KRP201"`, `"level": "error"`, `"uri": "testdata/single/pools.yaml"`, `"startLine": 77`, `"startColumn": 9`,
		`"field": "spec.template.spec.nodeClassRef.name"`, `"fullyQualifiedName": "NodePool/broken"`, `"columnKind": "unicodeCodePoints"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("SARIF lacks %s", want)
		}
	}
}

// The schema is not vacuous: it rejects what SARIF forbids.
func TestSARIFSchemaRejects(t *testing.T) {
	schema := compileSARIFSchema(t)
	valid := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"message":{"text":"m"},"level":"error","locations":[{"physicalLocation":{"artifactLocation":{"uri":"a.yaml"},"region":{"startLine":1}}}]}]}]}`
	if err := validateSARIF(t, schema, valid); err != nil {
		t.Fatalf("minimal valid log rejected: %v", err)
	}
	for name, doc := range map[string]string{
		"wrong version":     strings.Replace(valid, `"2.1.0"`, `"2.0.0"`, 1),
		"no driver name":    strings.Replace(valid, `{"name":"x"}`, `{}`, 1),
		"unknown level":     strings.Replace(valid, `"level":"error"`, `"level":"fatal"`, 1),
		"no message":        strings.Replace(valid, `"message":{"text":"m"},`, ``, 1),
		"line 0":            strings.Replace(valid, `"startLine":1`, `"startLine":0`, 1),
		"invented property": strings.Replace(valid, `"level":"error"`, `"level":"error","severity":"high"`, 1),
		"bad uri":           strings.Replace(valid, `"a.yaml"`, `"a b:\\c"`, 1),
	} {
		if err := validateSARIF(t, schema, doc); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
