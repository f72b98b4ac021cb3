package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the review does not follow of a kustomization is listed as skipped, with the reason,
// and does not stop the rest: remote bases, JSON 6902 patches, patches that match nothing,
// and an inline strategic-merge patch is applied like a file one.
func TestKustomizationSkipsAndInlinePatches(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("kustomization.yaml", `resources:
  - https://github.com/example/base?ref=v1
  - pool.yaml
patches:
  - patch: |-
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: general}
      spec: {limits: {cpu: "8"}}
  - path: other.yaml
patchesJson6902:
  - path: ops.yaml
    target: {kind: NodePool, name: general}
`)
	write("pool.yaml", cleanPool[strings.Index(cleanPool, "---")+4:strings.Index(cleanPool, "  limits")]+
		"---\napiVersion: karpenter.azure.com/v1beta1\nkind: AKSNodeClass\nmetadata: {name: default}\n")
	write("other.yaml", "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: elsewhere}\nspec: {weight: 5}\n")
	write("ops.yaml", "- op: replace\n  path: /spec/weight\n  value: 3\n")

	out := runJSON(t, "", ExitClean, dir)
	// The inline patch gave the pool its limits, so there is no KRP104; the JSON 6902 patch
	// file is not a manifest and is passed over.
	if len(out.Findings) != 0 {
		t.Errorf("findings %+v", out.Findings)
	}
	var reasons []string
	for _, s := range out.Skipped {
		reasons = append(reasons, s.Reason)
	}
	joined := strings.Join(reasons, "\n")
	for _, want := range []string{
		"remote resource https://github.com/example/base?ref=v1 is not fetched",
		"patchesJson6902 are not applied",
		"patch of NodePool/elsewhere matches no object of the reviewed input",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("skipped lacks %q:\n%s", want, joined)
		}
	}
	r := run(t, "", dir)
	if !strings.Contains(r.stdout, "skipped "+filepath.ToSlash(filepath.Join(dir, "kustomization.yaml"))+": remote resource") {
		t.Errorf("text report does not list skipped entries:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "limits cpu=8") {
		t.Errorf("the inline patch's limits are not in the summary:\n%s", r.stdout)
	}
}
