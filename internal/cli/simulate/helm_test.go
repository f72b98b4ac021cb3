package simulate

import "testing"

// A Helm chart among the paths is rendered as helm template renders it, with --helm-set, and
// its workloads are simulated.
func TestSimulateHelmChart(t *testing.T) {
	code, out, errOut := run(t, "", "--region", "westeurope", "--mode", "optimal", "--format", "json", "--helm-set", "replicas=5", "testdata/overlay/base/pools.yaml", "testdata/helm/app")
	if code != ExitClean {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	r := decode(t, out)
	found := false
	for _, c := range r.Clusters {
		for _, w := range c.Workloads {
			if w.Object == "Deployment/release-name-web" {
				found = true
				if w.Replicas != 5 || w.Requests["cpu"] != "500m" {
					t.Errorf("workload %+v, want 5 replicas of 500m", w)
				}
			}
		}
	}
	if !found {
		t.Fatalf("the chart's Deployment was not read: %+v", r.Clusters)
	}
}
