package review

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// Load reads a cluster's documents only when asked, and reading them withdraws the skip of an
// overlay patch that matched no NodePool but patches a workload: by the skip's kind and
// target, so a patch of another object keeps its skip.
func TestLoadReadsDocumentsAndWithdrawsWorkloadPatchSkips(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"kustomization.yaml": "resources: [pool.yaml, app.yaml]\npatches:\n  - path: app-patch.yaml\n  - path: other-patch.yaml\n",
		"pool.yaml":          "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: general}\nspec: {template: {spec: {nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}, requirements: []}}}\n",
		"app.yaml":           "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 1, template: {spec: {containers: [{name: api, image: x}]}}}\n",
		"app-patch.yaml":     "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec: {replicas: 4}\n",
		"other-patch.yaml":   "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: absent}\nspec: {replicas: 2}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opts := Options{Paths: []string{dir}, Region: "westeurope"}
	without, err := Load(opts, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(without.Clusters) != 1 || without.Clusters[0].Documents != nil || len(without.Clusters[0].NodePools) != 1 {
		t.Fatalf("without documents: %+v", without.Clusters)
	}
	if len(without.Skipped) != 2 || without.Skipped[0].Kind != source.SkipUnmatchedPatch || without.Skipped[1].Kind != source.SkipUnmatchedPatch {
		t.Fatalf("without documents, both patches match no NodePool: %+v", without.Skipped)
	}
	with, err := Load(opts, true)
	if err != nil {
		t.Fatal(err)
	}
	docs := with.Clusters[0].Documents
	if len(docs) != 1 || docs[0].Body["spec"].(map[string]any)["replicas"] != int64(4) && docs[0].Body["spec"].(map[string]any)["replicas"] != float64(4) {
		t.Fatalf("documents %+v: want the Deployment with the patch's 4 replicas", docs)
	}
	if len(with.Skipped) != 1 || with.Skipped[0].File != filepath.Join(dir, "other-patch.yaml") {
		t.Fatalf("with documents, only the patch of the absent Deployment stays skipped: %+v", with.Skipped)
	}
}
