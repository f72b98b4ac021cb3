package report

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// A finding is written with the severity it is reported with (the registry's, strict mode's or a
// documented alternative) in the JSON layout of version 1, and reads back as the same finding.
func TestFindingJSONRoundTrip(t *testing.T) {
	loc := source.Location{File: "pools.yaml", Line: 3, Column: 5, Field: "spec.limits"}
	for _, f := range []source.Finding{
		{Finding: findings.New(findings.NoLimits, "spec.limits", "no limits", "Set limits.").On("NodePool/a"), Cluster: "prod", Location: loc},
		{Finding: findings.New(findings.NoLimits, "spec.limits", "no limits", "").Strict(), Location: loc},
		{Finding: findings.New(findings.UnrenderedTemplate, "", "template", "").As(findings.Note), Location: source.Location{File: "chart.yaml", Line: 1}},
		{Finding: findings.New(findings.EqualWeightOverlap, "spec.weight", "m", "f").On("NodePool/b"), Location: source.Location{Field: "spec.weight"}, Related: []source.Location{{File: "a.yaml", Line: 2, Field: "spec.weight"}}},
	} {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(b), `{"code":"`+string(f.Code)+`","severity":"`+f.Severity().String()+`","message":`) || strings.Contains(string(b), `"path"`) {
			t.Errorf("layout: %s", b)
		}
		var back source.Finding
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(back, f) {
			t.Errorf("read back\n%+v\nwant\n%+v", back, f)
		}
	}
	var f source.Finding
	if err := json.Unmarshal([]byte(`{"code":"KRP104","severity":"note","message":"m"}`), &f); err == nil {
		t.Error("KRP104 as a note was read")
	}
}
