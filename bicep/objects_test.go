package bicep

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	manifests "github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

const poolsDir = "examples/pools"

// manifest is what the karpenter-nodepool and karpenter-aksnodeclass modules apply for a
// loaded YAML object: nodePoolManifest()/aksNodeClassManifest() keep apiVersion, kind,
// metadata.name and spec, like the provider, and drop everything else.
func manifest(obj map[string]any) map[string]any {
	meta, _ := obj["metadata"].(map[string]any)
	out := map[string]any{
		"apiVersion": obj["apiVersion"],
		"kind":       obj["kind"],
		"metadata":   map[string]any{"name": meta["name"]},
	}
	if spec, ok := obj["spec"]; ok {
		out["spec"] = spec
	}
	return out
}

// loadPools reads the shared example YAML, one object per file as loadYamlContent() needs.
func loadPools(t *testing.T) map[string]map[string]any {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(poolsDir, "*.yaml"))
	if err != nil || len(files) < 3 {
		t.Fatalf("want the example NodePools and AKSNodeClass in %s, got %v (%v)", poolsDir, files, err)
	}
	out := map[string]map[string]any{}
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), ".") {
			continue // .karpenter-review.yaml: the review's configuration, not a manifest
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Read as the review and the *_from_yaml functions read it (internal/manifest).
		docs, probs := manifests.Read(f, data, manifests.Options{})
		for _, p := range probs {
			t.Errorf("%s", p.Error())
		}
		objs := manifests.Objects(docs)
		if len(objs) != 1 {
			t.Fatalf("%s: %d objects; loadYamlContent reads one document, keep one object per file", f, len(objs))
		}
		obj := objs[0].Body
		out[f] = obj
	}
	return out
}

func gvkOf(t *testing.T, obj map[string]any) schema.GroupVersionKind {
	t.Helper()
	gv, err := schema.ParseGroupVersion(obj["apiVersion"].(string))
	if err != nil {
		t.Fatal(err)
	}
	gvk := gv.WithKind(obj["kind"].(string))
	if gvk != kinds.NodePool.GVK && gvk != kinds.AKSNodeClass.GVK {
		t.Fatalf("unexpected kind %s", gvk)
	}
	return gvk
}

// The shared pool definitions pass the review command with no finding at all, warnings
// included, in a region, so that the provisioning checks run too.
func TestExamplePoolsPassReview(t *testing.T) {
	rep, err := review.Review(context.Background(), review.Options{Paths: []string{poolsDir}, Region: "westeurope", Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Errorf("%s %s %s:%d: %s", f.Code, f.Object, f.File, f.Line, f.Message)
	}
	for _, s := range rep.Skipped {
		t.Errorf("review skipped %s: %s", s.File, s.Reason)
	}
	if len(rep.Pools) != 2 || len(rep.Clusters) != 1 || rep.Clusters[0].NodeClasses != 1 {
		t.Fatalf("review saw %d pools and %+v, want the 2 NodePools and 1 AKSNodeClass", len(rep.Pools), rep.Clusters)
	}
}

// The review is not vacuous: the same files with one pool broken fail it.
func TestReviewRejectsABrokenPool(t *testing.T) {
	dir := t.TempDir()
	for f, obj := range loadPools(t) {
		if obj["kind"] == "NodePool" && obj["metadata"].(map[string]any)["name"] == "general" {
			reqs := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["requirements"].([]any)
			reqs[0].(map[string]any)["key"] = "karpenter.sh/nodepool" // a restricted label
		}
		data, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := review.Review(context.Background(), review.Options{Paths: []string{dir}, Region: "westeurope"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) == 0 {
		t.Fatal("a NodePool requiring the restricted label karpenter.sh/nodepool passed the review")
	}
}

// What the modules would create is valid: every manifest passes the offline validator and a
// dry-run create on a real kube-apiserver with the pinned CRDs, which also applies defaults
// and the CEL rules. A broken copy is rejected by both, so the checks are not vacuous.
func TestModuleManifestsAreAcceptedByTheAPIServer(t *testing.T) {
	c := testenv.Get(t)
	ctx := context.Background()
	for f, obj := range loadPools(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			m := manifest(obj)
			gvk := gvkOf(t, m)
			if msgs, err := manifests.Validate(ctx, manifests.Object{GVK: gvk, Body: m}); err != nil || len(msgs) > 0 {
				t.Fatalf("crdvalidate: %v %v", msgs, err)
			}
			res := kinds.NodePool.GVR()
			if gvk == kinds.AKSNodeClass.GVK {
				res = kinds.AKSNodeClass.GVR()
			}
			u := &unstructured.Unstructured{Object: m}
			got, err := c.Dynamic.Resource(res).Create(ctx, u.DeepCopy(), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			if err != nil {
				t.Fatalf("API server dry-run create: %v", err)
			}
			// The API server defaulted the object as the types' descriptions say.
			if gvk == kinds.NodePool.GVK {
				if v, _, _ := unstructured.NestedString(got.Object, "spec", "template", "spec", "expireAfter"); v == "" {
					t.Error("the API server did not default spec.template.spec.expireAfter")
				}
			} else if v, _, _ := unstructured.NestedString(got.Object, "spec", "imageFamily"); v == "" {
				t.Error("the API server did not default spec.imageFamily")
			}

			broken := u.DeepCopy()
			if gvk == kinds.NodePool.GVK {
				_ = unstructured.SetNestedField(broken.Object, int64(1000), "spec", "weight") // maximum 100
			} else {
				_ = unstructured.SetNestedField(broken.Object, int64(10), "spec", "osDiskSizeGB") // minimum 30
			}
			if errs := crdvalidate.MustFor(gvk).Validate(ctx, broken.Object); len(errs) == 0 {
				t.Error("crdvalidate accepted an out-of-range value")
			}
			if _, err := c.Dynamic.Resource(res).Create(ctx, broken, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err == nil {
				t.Error("the API server accepted an out-of-range value")
			}
		})
	}
}

// The manifests keep only what the provider writes: metadata other than the name is dropped,
// exactly as nodePoolManifest()/aksNodeClassManifest() and the Terraform functions do.
func TestManifestFunctionsKeepOnlyProviderFields(t *testing.T) {
	for _, mod := range []struct{ file, fn string }{
		{"modules/karpenter-nodepool/main.bicep", "nodePoolManifest"},
		{"modules/karpenter-aksnodeclass/main.bicep", "aksNodeClassManifest"},
	} {
		data, err := os.ReadFile(mod.file)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		i := strings.Index(text, "func "+mod.fn+"(")
		if i < 0 {
			t.Fatalf("%s has no func %s", mod.file, mod.fn)
		}
		body := text[i:]
		body = body[:strings.Index(body, "\n}\n")+2]
		// The function's object literal has exactly these keys at the top level and under
		// metadata; the resource body takes metadata and spec from it.
		for _, want := range []string{"apiVersion:", "kind:", "metadata: {", "name: ", "spec: "} {
			if !strings.Contains(body, want) {
				t.Errorf("%s: %s lacks %q", mod.file, mod.fn, want)
			}
		}
		if strings.Count(body, ":") != 5 {
			t.Errorf("%s: %s sets other fields than apiVersion, kind, metadata.name and spec:\n%s", mod.file, mod.fn, body)
		}
		if !strings.Contains(text, "metadata: "+mod.fn+"(") || !strings.Contains(text, "spec: "+mod.fn+"(") {
			t.Errorf("%s: the resource is not built from %s", mod.file, mod.fn)
		}
	}
}
