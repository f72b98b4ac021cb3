package simulate

import (
	"encoding/json"
	"strings"
	"testing"
)

// A pool whose family changes from D to E drifts its three running Standard_D4s_v5 nodes; the
// unchanged pool drifts none. The budget of one node at a time makes three rounds.
func TestSimulateClusterStateDrift(t *testing.T) {
	for _, tc := range []struct {
		tree    string
		drifted int
	}{{"testdata/drift/before", 0}, {"testdata/drift/after", 3}} {
		code, out, errOut := run(t, "", "--cluster-state", "testdata/drift/snapshot.yaml", "--region", "westeurope", "--format", "json", tc.tree)
		if code != ExitClean {
			t.Fatalf("%s: exit %d: %s", tc.tree, code, errOut)
		}
		if strings.Contains(out, "s3cr3t") {
			t.Errorf("%s: a container's environment reached the report", tc.tree)
		}
		var rep struct {
			Clusters []struct {
				Drift *jsonDrift `json:"drift"`
			} `json:"clusters"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
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
	code, out, errOut := run(t, "", "--cluster-state", "testdata/drift/snapshot.yaml", "--region", "westeurope", "testdata/drift/after")
	if code != ExitClean || !strings.Contains(out, "NodePool general: 3 of 3 nodes drift; budgets allow 1 at a time now, 1 at most within 31 days: 3 replacement rounds") {
		t.Errorf("text report (exit %d, %s):\n%s", code, errOut, out)
	}
}

func TestSimulateClusterStateErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--cluster-state", "testdata/drift/nope.yaml", "--region", "westeurope", "testdata/drift/after"}, "--cluster-state: stat testdata/drift/nope.yaml"},
		{[]string{"--cluster-state", "testdata/drift/snapshot.yaml", "--kubeconfig", "x", "--region", "westeurope", "testdata/drift/after"}, "give one"},
		{[]string{"--kubeconfig", "testdata/drift/nope", "--region", "westeurope", "testdata/drift/after"}, "--kubeconfig: kubeconfig"},
	} {
		code, _, errOut := run(t, "", tc.args...)
		if code != ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want usage error with %q", tc.args, code, errOut, tc.want)
		}
	}
}
