package simulation

import (
	"context"
	"os"
	"strings"
	"testing"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// startCluster starts a local API server for one test, or skips without the binaries (under
// CI=true their absence fails).
func startCluster(t *testing.T) *testenv.Cluster {
	t.Helper()
	if os.Getenv("KUBEBUILDER_ASSETS") == "" && os.Getenv("CI") != "true" {
		t.Skip("no KUBEBUILDER_ASSETS: run `make test` for the tests on the local API server")
	}
	c, err := testenv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

const drifterPool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}
      requirements:
      - {key: karpenter.azure.com/sku-family, operator: In, values: [D]}
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
  limits: {cpu: 100}
  disruption: {consolidateAfter: 5m}
`

const drifterClass = `apiVersion: karpenter.azure.com/v1beta1
kind: AKSNodeClass
metadata: {name: default}
spec: {imageFamily: Ubuntu2204}
`

func body(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

var (
	nodePoolsGVR  = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
	nodeClaimsGVR = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}
	aksClassesGVR = schema.GroupVersionResource{Group: "karpenter.azure.com", Version: "v1beta1", Resource: "aksnodeclasses"}
)

// runningCluster creates what Karpenter leaves after launching three Standard_D4s_v5 nodes for
// drifterPool: the pool and class with the hashes their hash controllers compute from the API
// server's defaulted objects, and three launched NodeClaims that carry them.
func runningCluster(t *testing.T, c *testenv.Cluster) {
	t.Helper()
	ctx := context.Background()
	create := func(gvr schema.GroupVersionResource, obj map[string]any) *unstructured.Unstructured {
		got, err := c.Dynamic.Resource(gvr).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	np := &karpv1.NodePool{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(create(nodePoolsGVR, body(t, drifterPool)).Object, np); err != nil {
		t.Fatal(err)
	}
	nc := &azv1beta1.AKSNodeClass{}
	classObj := create(aksClassesGVR, body(t, drifterClass))
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(classObj.Object, nc); err != nil {
		t.Fatal(err)
	}
	hashes := map[string]any{
		karpv1.NodePoolHashAnnotationKey: np.Hash(), karpv1.NodePoolHashVersionAnnotationKey: karpv1.NodePoolHashVersion,
		azv1beta1.AnnotationAKSNodeClassHash: nc.Hash(), azv1beta1.AnnotationAKSNodeClassHashVersion: azv1beta1.AKSNodeClassHashVersion,
	}
	classObj.SetAnnotations(map[string]string{azv1beta1.AnnotationAKSNodeClassHash: nc.Hash(), azv1beta1.AnnotationAKSNodeClassHashVersion: azv1beta1.AKSNodeClassHashVersion})
	if _, err := c.Dynamic.Resource(aksClassesGVR).Update(ctx, classObj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i, zone := range []string{"westeurope-1", "westeurope-2", "westeurope-3"} {
		name := "general-" + string(rune('a'+i))
		claim := create(nodeClaimsGVR, map[string]any{
			"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
			"metadata": map[string]any{"name": name, "annotations": hashes, "labels": map[string]any{
				karpv1.NodePoolLabelKey: "general", "node.kubernetes.io/instance-type": "Standard_D4s_v5",
				"topology.kubernetes.io/zone": zone, karpv1.CapacityTypeLabelKey: "on-demand",
				"karpenter.azure.com/sku-family": "D", "kubernetes.io/arch": "amd64", "kubernetes.io/os": "linux",
			}},
			"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
				"requirements": []any{map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{"Standard_D4s_v5"}}},
			},
		})
		claim.Object["status"] = map[string]any{"nodeName": "aks-" + name, "conditions": []any{map[string]any{
			"type": "Launched", "status": "True", "reason": "Launched", "message": "", "lastTransitionTime": "2026-12-01T00:00:00Z",
		}}}
		if _, err := c.Dynamic.Resource(nodeClaimsGVR).UpdateStatus(ctx, claim, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// The hashes and requirements of a change, judged offline from the repository's manifests,
// drift exactly the NodeClaims Karpenter's controllers would drift on the live cluster.
func TestDriftOfAChange(t *testing.T) {
	c := startCluster(t)
	runningCluster(t, c)
	snap, err := clusterstate.List(context.Background(), c.Dynamic)
	if err != nil {
		t.Fatal(err)
	}
	s := analysis.New(catalog.Default())
	for _, tc := range []struct {
		name        string
		pool, class string
		want        string
	}{
		{"unchanged", drifterPool, drifterClass, ""},
		{"unchanged, class not in the change", drifterPool, "", ""},
		{"family D to E", strings.Replace(drifterPool, "values: [D]", "values: [E]", 1), drifterClass, "RequirementsDrifted"},
		{"family widened", strings.Replace(drifterPool, "values: [D]", "values: [D, E]", 1), drifterClass, ""},
		{"template label", strings.Replace(drifterPool, "    spec:\n", "    metadata: {labels: {team: a}}\n    spec:\n", 1), drifterClass, "NodePoolDrifted"},
		{"limits only", strings.Replace(drifterPool, "cpu: 100", "cpu: 200", 1), drifterClass, ""},
		{"image family", drifterPool, strings.Replace(drifterClass, "Ubuntu2204", "AzureLinux", 1), "NodeClassDrift"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Region: "westeurope", NodePools: []map[string]any{body(t, tc.pool)}}
			if tc.class != "" {
				in.NodeClasses = []map[string]any{body(t, tc.class)}
			}
			res, err := Drift(context.Background(), s, snap, in)
			if err != nil {
				t.Fatal(err)
			}
			if res.Checked != 3 {
				t.Fatalf("%d NodeClaims judged, want 3", res.Checked)
			}
			want := 0
			if tc.want != "" {
				want = 3
			}
			if len(res.Drifted) != want {
				t.Fatalf("%d drifted (%+v), want %d", len(res.Drifted), res.Drifted, want)
			}
			for _, d := range res.Drifted {
				if string(d.Reason) != tc.want || d.InstanceType != "Standard_D4s_v5" || d.NodePool != "general" || !strings.HasPrefix(d.Node, "aks-general-") {
					t.Errorf("drifted %+v, want reason %s on a Standard_D4s_v5 of general", d, tc.want)
				}
			}
		})
	}
}
