package benchcmp

import (
	"strings"
	"testing"
)

// A disruption case directory: before/ and after/ read as scenario directories; a pool with a
// new template label and a Deployment scaled from 6 to 2 replicas become the case's change;
// a case without after/ only settles; an after/ pool that before/ lacks is refused by path.
func TestDisruptionDirsLoad(t *testing.T) {
	web := func(replicas string) string {
		return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ` + replicas + `
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web, resources: {requests: {cpu: "1", memory: 1Gi}}}]
`
	}
	labelled := strings.Replace(loaderPool, "  template:\n", "  template:\n    metadata: {labels: {team: platform}}\n", 1)
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"change/before/pool.yaml": loaderPool,
		"change/before/web.yaml":  web("6"),
		"change/scenario.yaml":    "region: eastus\n",
		"change/after/pool.yaml":  labelled,
		"change/after/web.yaml":   web("2"),
		"settle/before/pool.yaml": loaderPool,
		"settle/before/web.yaml":  web("3"),
	})
	cases, err := loadDisruptionDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) != 2 || cases[0].name != "change" || cases[1].name != "settle" {
		t.Fatalf("cases %v, want change and settle", len(cases))
	}
	ch := cases[0]
	if !strings.HasSuffix(ch.sc.name, "-eastus") {
		t.Errorf("change: scenario %s, want the root scenario.yaml's region eastus", ch.sc.name)
	}
	if len(ch.sc.pods) != 6 || len(ch.afterPods) != 2 || len(ch.afterPools) != 1 || ch.afterPools[0].Spec.Template.Labels["team"] != "platform" {
		t.Errorf("change: %d pods before, %d after, %d pools after", len(ch.sc.pods), len(ch.afterPods), len(ch.afterPools))
	}
	if got := ch.sc.pools[0].Spec.Disruption.ConsolidationPolicy; got == "" || len(ch.sc.pools[0].Spec.Disruption.Budgets) == 0 {
		t.Errorf("change: pool disruption not defaulted: policy %q", got)
	}
	if cases[1].changed() {
		t.Error("settle: a case without after/ has a change")
	}
	writeFiles(t, root, map[string]string{"bad/before/pool.yaml": loaderPool, "bad/before/web.yaml": web("1"),
		"bad/after/pool.yaml": strings.Replace(loaderPool, "name: general", "name: other", 1), "bad/after/web.yaml": web("1")})
	if _, err := loadDisruptionDirs(root); err == nil || !strings.Contains(err.Error(), "bad/after") || !strings.Contains(err.Error(), "NodePool other") {
		t.Errorf("an after/ pool before/ lacks: got %v, want an error naming bad/after and NodePool other", err)
	}
	writeFiles(t, root, map[string]string{"hpa/scenario.yaml": "hpaMaxReplicas: true\n", "hpa/before/pool.yaml": loaderPool})
	if _, err := loadDisruptionDirs(root); err == nil || !strings.Contains(err.Error(), "hpa/scenario.yaml") {
		t.Errorf("hpaMaxReplicas in a case's scenario.yaml: got %v, want an error naming hpa/scenario.yaml, as simulate refuses it", err)
	}
}
