package simulate

import "testing"

// Workloads of an overlay are simulated as kustomize build makes them: here a JSON 6902
// patch sets the Deployment's replicas, which the review's own strategic-merge reading never
// applied.
func TestSimulateKustomizeJSON6902(t *testing.T) {
	code, out, errOut := run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "json", "testdata/overlay/ops", "testdata/overlay/base")
	if code != ExitClean {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	r := decode(t, out)
	found := false
	for _, c := range r.Clusters {
		for _, w := range c.Workloads {
			if w.Object == "Deployment/api" {
				found = true
				if w.Replicas != 7 {
					t.Errorf("api has %d replicas, want the patch's 7", w.Replicas)
				}
			}
		}
	}
	if !found {
		t.Fatalf("no Deployment/api: %+v", r.Clusters)
	}
}
