package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// guideOutput is an output block of a guide (docs/guides is generated from templates/guides)
// and how a test produces or checks it.
type guideOutput struct {
	guide string // templates/guides/<guide>.md.tmpl
	n     int    // the n-th fenced block of lang in the guide, from 0
	lang  string
	// check runs the command the guide names, from the repository's root, and compares its
	// output with the block; "" when the block is not checked yet, with why.
	check      func(t *testing.T, block string)
	notChecked string
}

// guideOutputs lists every ```json and ```text block of the guides: a new block fails
// TestGuideOutputs until it is listed here with its check.
var guideOutputs = []guideOutput{
	{guide: "review-fleet", n: 0, lang: "json", check: checkFleetRow},
	{guide: "what-will-karpenter-launch", n: 0, lang: "text", notChecked: "checked by internal/cli/simulate TestAdviceWidePool"},
	{guide: "what-will-karpenter-launch", n: 1, lang: "text", notChecked: "checked by internal/cli/simulate TestAdviceWidePool"},
	{guide: "eks", n: 0, lang: "text", notChecked: "checked by the root package's TestGuide* (guides_check_test.go)"},
	{guide: "eks", n: 1, lang: "text", notChecked: "checked by the root package's TestGuide* (guides_check_test.go)"},
	{guide: "eks", n: 2, lang: "text", notChecked: "checked by the root package's TestGuide* (guides_check_test.go)"},
	{guide: "eks", n: 3, lang: "text", notChecked: "checked by the root package's TestGuide* (guides_check_test.go)"},
	{guide: "findings", n: 0, lang: "text", notChecked: "checked by the root package's TestGuide* (guides_check_test.go)"},
	{guide: "migrate-from-manifests", n: 0, lang: "text", notChecked: "checked by the root package's TestGuide* (guides_check_test.go)"},
	{guide: "multi-zone", n: 0, lang: "text", notChecked: "checked by the root package's TestGuide* (guides_check_test.go)"},
	{guide: "what-will-this-change-do", n: 0, lang: "text", notChecked: "checked by internal/cli/simulate TestGuideScenarioOutputs"},
	{guide: "what-will-this-change-do", n: 1, lang: "text", notChecked: "checked by internal/cli/simulate TestGuideScenarioOutputs"},
	{guide: "prices", n: 0, lang: "json", notChecked: "checked by the root package's TestGuidePricesProvenance (guides_check_test.go)"},
	{guide: "prices", n: 1, lang: "json", notChecked: "an input file (checks.catalog_path), not output"},
}

var fence = regexp.MustCompile("(?ms)^```(json|text)\n(.*?)^```\n")

// Every output block of the guides is listed in guideOutputs, and those with a check match
// what the command produces today.
func TestGuideOutputs(t *testing.T) {
	root := "../../.."
	files, err := filepath.Glob(filepath.Join(root, "templates/guides/*.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]guideOutput{}
	for _, g := range guideOutputs {
		listed[g.guide+"/"+g.lang+"/"+strconv.Itoa(g.n)] = g
	}
	blocks := map[string]string{}
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".md.tmpl")
		count := map[string]int{}
		for _, m := range fence.FindAllStringSubmatch(string(body), -1) {
			key := name + "/" + m[1] + "/" + strconv.Itoa(count[m[1]])
			count[m[1]]++
			blocks[key] = m[2]
			if _, ok := listed[key]; !ok {
				t.Errorf("%s: output block %s is not in guideOutputs:\n%s", f, key, m[2])
			}
		}
	}
	t.Chdir(root)
	for key, g := range listed {
		block, ok := blocks[key]
		if !ok {
			t.Errorf("guideOutputs lists %s, which the guide does not have", key)
			continue
		}
		if g.check != nil {
			t.Run(key, func(t *testing.T) { g.check(t, block) })
		}
	}
}

// checkFleetRow: the guide shows prod-eus's row of the fleet table, the groups and the totals.
func checkFleetRow(t *testing.T, block string) {
	r := run(t, "", "--format", "json", "--workloads", "examples/review/fleet-apps", "examples/review/fleet")
	type fleet struct {
		Fleet struct {
			Clusters []map[string]any `json:"clusters"`
			Groups   any              `json:"groups"`
			Totals   any              `json:"totals"`
		} `json:"fleet"`
	}
	var got, want fleet
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v: %s %s", err, r.stdout, r.stderr)
	}
	if err := json.Unmarshal([]byte("{"+block+"}"), &want); err != nil {
		t.Fatalf("the guide's block is not JSON: %v", err)
	}
	var row map[string]any
	for _, c := range got.Fleet.Clusters {
		if c["name"] == "prod-eus" {
			row = c
		}
	}
	show := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	if len(want.Fleet.Clusters) != 1 || !reflect.DeepEqual(row, want.Fleet.Clusters[0]) {
		t.Errorf("prod-eus row is stale:\nguide %s\nnow   %s", show(want.Fleet.Clusters), show(row))
	}
	if !reflect.DeepEqual(got.Fleet.Groups, want.Fleet.Groups) || !reflect.DeepEqual(got.Fleet.Totals, want.Fleet.Totals) {
		t.Errorf("groups or totals are stale:\nguide %s %s\nnow   %s %s", show(want.Fleet.Groups), show(want.Fleet.Totals), show(got.Fleet.Groups), show(got.Fleet.Totals))
	}
}
