package simulate

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// A run on paths holding no NodePool (a Terraform configuration's directory) says so and what
// the command reads, in every format, instead of printing nothing, and fails (exit 2) unless
// --allow-empty accepts it: a CI job given the wrong path must not pass.
func TestNoNodePoolIsSaid(t *testing.T) {
	for _, format := range []string{"text", "markdown", "json"} {
		var stdout, stderr bytes.Buffer
		args := []string{"--region", "westeurope", "--format", format, "../../../examples/scenarios/multi-zone"}
		if code := Main(context.Background(), args, strings.NewReader(""), &stdout, &stderr, "test"); code != ExitUsage || !strings.Contains(stderr.String(), "--allow-empty") {
			t.Errorf("%s: exit %d, want 2 naming --allow-empty: %s", format, code, stderr.String())
		}
		stdout.Reset()
		stderr.Reset()
		code := Main(context.Background(), append(args, "--allow-empty"), strings.NewReader(""), &stdout, &stderr, "test")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, stderr.String())
		}
		out := stdout.String()
		if format == "json" {
			var r struct {
				Files    *int  `json:"files"`
				Clusters []any `json:"clusters"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &r); err != nil || r.Files == nil || *r.Files != 0 || len(r.Clusters) != 0 {
				t.Errorf("json: %v %+v\n%s", err, r, out)
			}
			continue
		}
		if !strings.Contains(out, "nothing to simulate: no NodePool in the inputs") || !strings.Contains(out, "not Terraform .tf files") {
			t.Errorf("%s output:\n%s", format, out)
		}
		if format == "text" && !strings.Contains(out, "simulated 0 clusters: 0 NodePools, 0 workloads (0 pods) from 0 files") {
			t.Errorf("text closing line:\n%s", out)
		}
	}
}
