package simulate

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// A pool whose family changes from D to E drifts its three running Standard_D4s_v5 nodes; the
// unchanged pool drifts none. The budget of one node at a time makes three rounds.
func TestSimulateClusterStateDrift(t *testing.T) {
	for _, tc := range []struct {
		tree    string
		drifted int
	}{{"../../../examples/simulate/pool-change/before", 0}, {"../../../examples/simulate/pool-change/after", 3}} {
		code, out, errOut := run(t, "", "--cluster-state", "../../../examples/simulate/pool-change/cluster-state.yaml", "--region", "westeurope", "--format", "json", tc.tree)
		if code != ExitClean {
			t.Fatalf("%s: exit %d: %s", tc.tree, code, errOut)
		}
		if strings.Contains(out, "s3cr3t") {
			t.Errorf("%s: a container's environment reached the report", tc.tree)
		}
		var rep struct {
			Clusters []struct {
				Drift       *jsonDrift `json:"drift"`
				SteadyState *struct {
					Disruptions []struct {
						Reason  string `json:"reason"`
						Removed []struct {
							InstanceType string `json:"instanceType"`
						} `json:"removed"`
					} `json:"disruptions"`
				} `json:"steadyState"`
			} `json:"clusters"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		// The steady state starts from the snapshot's nodes: the changed requirement drifts
		// each of them, and the disruption emulation replaces them.
		var drifted int
		for _, ev := range rep.Clusters[0].SteadyState.Disruptions {
			for _, r := range ev.Removed {
				if ev.Reason == "Drifted" && r.InstanceType == "Standard_D4s_v5" {
					drifted++
				}
			}
		}
		if drifted != tc.drifted {
			t.Errorf("%s: %d Drifted Standard_D4s_v5 nodes in steadyState.disruptions, want %d", tc.tree, drifted, tc.drifted)
		}
		d := rep.Clusters[0].Drift
		if d == nil || d.Checked != 3 || len(d.Nodes) != tc.drifted {
			t.Fatalf("%s: drift %+v, want %d of 3 drifted", tc.tree, d, tc.drifted)
		}
		for _, n := range d.Nodes {
			if n.Reason != "RequirementsDrifted" || n.InstanceType != "Standard_D4s_v5" || n.Pool != "general" {
				t.Errorf("%s: %+v", tc.tree, n)
			}
		}
		if tc.drifted > 0 && (len(d.Pools) != 1 || d.Pools[0].Rounds != 3 || d.Pools[0].AtOnce != 1) {
			t.Errorf("%s: pools %+v, want 3 rounds of one node", tc.tree, d.Pools)
		}
	}
	code, out, errOut := run(t, "", "--cluster-state", "../../../examples/simulate/pool-change/cluster-state.yaml", "--region", "westeurope", "../../../examples/simulate/pool-change/after")
	if code != ExitClean || !strings.Contains(out, "NodePool general: 3 of 3 nodes drift; budgets allow 1 at a time now, 1 at most within 31 days: 3 replacement rounds") {
		t.Errorf("text report (exit %d, %s):\n%s", code, errOut, out)
	}
}

func TestSimulateClusterStateErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cluster-state", "testdata/nope.yaml", "--region", "westeurope", "../../../examples/simulate/pool-change/after"}, "--cluster-state: stat testdata/nope.yaml"},
		{[]string{"--cluster-state", "../../../examples/simulate/pool-change/cluster-state.yaml", "--kubeconfig", "x", "--region", "westeurope", "../../../examples/simulate/pool-change/after"}, "give one"},
		{[]string{"--kubeconfig", "testdata/nope", "--region", "westeurope", "../../../examples/simulate/pool-change/after"}, "--kubeconfig: kubeconfig"},
	} {
		code, _, errOut := run(t, "", tc.args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want usage error with %q", tc.args, code, errOut, tc.want)
		}
	}
}

// The guide's output block is the command's output.
func TestGuideWhatWillThisChangeDo(t *testing.T) {
	guide, err := os.ReadFile("../../../templates/guides/what-will-this-change-do.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(guide), "examples/simulate/pool-change/after\n```\n\n```\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok || block == "" {
		t.Fatal("the guide's output block is not found")
	}
	code, out, errOut := run(t, "", "--region", "westeurope", "--cluster-state", "../../../examples/simulate/pool-change/cluster-state.yaml", "../../../examples/simulate/pool-change/after")
	if code != ExitClean {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, block) {
		t.Errorf("the guide shows\n%s\nbut the command prints\n%s", block, out)
	}
}
