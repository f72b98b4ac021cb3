package review

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The JSON report names a price source once per region: 5 EKS pools in us-east-1, each with a
// cheapest fact and a KRP117 note citing the EC2 on-demand table (a file, a commit and a
// generation time) and the spot snapshot, list each source once under priceSources and
// reference it; the text report keeps it on every pool.
func TestJSONNamesEachPriceSourceOnce(t *testing.T) {
	pool, err := os.ReadFile("../../../examples/eks/getting-started/nodepool.yaml")
	if err != nil {
		t.Fatal(err)
	}
	class, err := os.ReadFile("../../../examples/eks/getting-started/ec2nodeclass.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "ec2nodeclass.yaml"), string(class))
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		writeFile(t, filepath.Join(dir, n+".yaml"), strings.Replace(string(pool), "metadata:\n  name: default", "metadata:\n  name: "+n, 1))
	}
	const onDemand = "zz_generated.pricing_aws.go"
	js := run(t, "", "--format", "json", "--region", "us-east-1", dir)
	if n := strings.Count(js.stdout, onDemand); n != 1 {
		t.Errorf("the JSON names the on-demand table %d times, want once", n)
	}
	var out struct {
		Pools []struct {
			Name  string
			Facts []struct{ Name, Value, PriceSource string }
		}
		Findings []struct {
			Code, Message string
			PriceSources  []string
		}
		PriceSources []struct{ ID, Region, Currency, Source string }
	}
	if err := json.Unmarshal([]byte(js.stdout), &out); err != nil {
		t.Fatal(err)
	}
	byID := map[string]string{}
	for _, s := range out.PriceSources {
		if s.Region != "us-east-1" || s.Currency != "USD" {
			t.Errorf("price source %+v", s)
		}
		byID[s.ID] = s.Source
	}
	if len(out.PriceSources) != 2 {
		t.Errorf("price sources %+v, want the on-demand table and the spot snapshot", out.PriceSources)
	}
	cheapest := 0
	for _, p := range out.Pools {
		for _, f := range p.Facts {
			if f.Name == "cheapest" {
				cheapest++
				if !strings.Contains(byID[f.PriceSource], onDemand) || !strings.HasSuffix(f.Value, "(price source "+f.PriceSource+")") {
					t.Errorf("%s: cheapest %+v", p.Name, f)
				}
			}
		}
	}
	notes := 0
	for _, f := range out.Findings {
		if f.Code == "KRP117" {
			notes++
			if len(f.PriceSources) != 2 || !strings.Contains(byID[f.PriceSources[1]], onDemand) || strings.Contains(f.Message, onDemand) {
				t.Errorf("KRP117 %+v", f)
			}
		}
	}
	if cheapest != 5 || notes != 5 {
		t.Errorf("%d cheapest facts, %d KRP117 notes; want 5 each", cheapest, notes)
	}
	text := run(t, "", "--color", "never", "--region", "us-east-1", dir)
	if n := strings.Count(text.stdout, onDemand); n < 10 {
		t.Errorf("the text report names the on-demand table %d times, want it on every pool and note", n)
	}
}
