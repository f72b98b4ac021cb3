package clusterstate

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/printers"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// created are the objects of the live tests, as a cluster running NAP holds them.
var created = []string{
	`{apiVersion: v1, kind: Namespace, metadata: {name: shop}}`,
	`{apiVersion: v1, kind: Node, metadata: {name: aks-general-a, labels: {karpenter.sh/nodepool: general, node.kubernetes.io/instance-type: Standard_D4s_v5, topology.kubernetes.io/zone: westeurope-1, karpenter.sh/capacity-type: on-demand}, annotations: {karpenter.sh/nodepool-hash: "42"}}, spec: {taints: [{key: dedicated, value: general, effect: NoSchedule}]}}`,
	`{apiVersion: v1, kind: Node, metadata: {name: aks-system-0, labels: {kubernetes.azure.com/mode: system, node.kubernetes.io/instance-type: Standard_D2s_v5}}}`,
	`{apiVersion: karpenter.sh/v1, kind: NodePool, metadata: {name: general}, spec: {limits: {cpu: 100}, disruption: {consolidateAfter: 0s}, template: {spec: {nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}, requirements: [{key: karpenter.azure.com/sku-family, operator: In, values: [D]}]}}}}`,
	`{apiVersion: karpenter.azure.com/v1beta1, kind: AKSNodeClass, metadata: {name: default}, spec: {imageFamily: AzureLinux}}`,
	`{apiVersion: karpenter.sh/v1, kind: NodeClaim, metadata: {name: general-a, labels: {karpenter.sh/nodepool: general}, annotations: {karpenter.sh/nodepool-hash: "42", karpenter.sh/nodepool-hash-version: v3}}, spec: {nodeClassRef: {group: karpenter.azure.com, kind: AKSNodeClass, name: default}, requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [Standard_D4s_v5]}]}}`,
	`{apiVersion: v1, kind: Pod, metadata: {name: web-0, namespace: shop, labels: {app: web}, annotations: {karpenter.sh/do-not-disrupt: "true"}}, spec: {nodeName: aks-general-a, tolerations: [{key: dedicated, value: general, effect: NoSchedule}], containers: [{name: web, image: registry.example/web:1, env: [{name: DB_PASSWORD, value: hunter2}], resources: {requests: {cpu: 500m, memory: 1Gi}}}]}}`,
	`{apiVersion: v1, kind: Pod, metadata: {name: pending-0, namespace: shop, labels: {app: batch}}, spec: {containers: [{name: b, image: registry.example/batch:1, resources: {requests: {cpu: "2"}}}]}}`,
	`{apiVersion: policy/v1, kind: PodDisruptionBudget, metadata: {name: web, namespace: shop}, spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}}`,
}

func createAll(t *testing.T, c *testenv.Cluster) {
	t.Helper()
	ctx := context.Background()
	for _, text := range created {
		var obj unstructured.Unstructured
		if err := yaml.Unmarshal([]byte(text), &obj.Object); err != nil {
			t.Fatal(err)
		}
		gvk := obj.GroupVersionKind()
		gvr := gvrOf(t, gvk)
		ri := c.Dynamic.Resource(gvr)
		var err error
		if ns := obj.GetNamespace(); ns != "" {
			_, err = ri.Namespace(ns).Create(ctx, &obj, metav1.CreateOptions{})
		} else {
			_, err = ri.Create(ctx, &obj, metav1.CreateOptions{})
		}
		if err != nil {
			t.Fatalf("create %s %s: %v", gvk.Kind, obj.GetName(), err)
		}
	}
}

func gvrOf(t *testing.T, gvk schema.GroupVersionKind) schema.GroupVersionResource {
	if gvk.Kind == "Namespace" {
		return schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	}
	for _, r := range Resources() {
		plural := strings.EqualFold(r.Resource, gvk.Kind+"s") || strings.EqualFold(r.Resource, gvk.Kind+"es")
		if r.Group == gvk.Group && r.Version == gvk.Version && plural {
			return r
		}
	}
	t.Fatalf("no resource for %v", gvk)
	return schema.GroupVersionResource{}
}

// kubectlGet prints what `kubectl get nodes,pods,pdb,nodeclaims,nodepools,aksnodeclasses -A -o
// FORMAT` prints: one v1 List of every object, through kubectl's own printers.
func kubectlGet(t *testing.T, c *testenv.Cluster, printer printers.ResourcePrinter) []byte {
	t.Helper()
	list := &unstructured.UnstructuredList{Object: map[string]any{"kind": "List", "apiVersion": "v1", "metadata": map[string]any{}}}
	for _, gvr := range Resources() {
		got, err := c.Dynamic.Resource(gvr).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			continue // a kind the cluster does not serve, as kubectl skips it
		}
		list.Items = append(list.Items, got.Items...)
	}
	var out bytes.Buffer
	if err := printer.PrintObj(list, &out); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// A snapshot printed by kubectl reads as the same state as the live listing.
func TestSnapshotEqualsLiveListing(t *testing.T) {
	c := testenv.Get(t)
	createAll(t, c)
	live, err := List(context.Background(), c.Dynamic)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := live.Counts(), "2 nodes, 1 NodeClaim, 2 pods (1 pending), 1 PodDisruptionBudget, 1 NodePool, 1 node class"; got != want {
		t.Fatalf("live: %s, want %s", got, want)
	}
	for name, printer := range map[string]printers.ResourcePrinter{"yaml": &printers.YAMLPrinter{}, "json": &printers.JSONPrinter{}} {
		text := kubectlGet(t, c, printer)
		snap := &Snapshot{}
		if err := snap.Read("snapshot."+name, bytes.NewReader(text)); err != nil {
			t.Fatal(err)
		}
		snap.sort()
		if len(snap.Problems) > 0 {
			t.Fatalf("%s: %v", name, snap.Problems)
		}
		if !equalState(snap, live) {
			t.Errorf("kubectl -o %s reads differently from the live listing:\n%s", name, diffState(snap, live))
		}
		if !bytes.Contains(text, []byte("hunter2")) || bytes.Contains(mustJSON(t, snap.Pods), []byte("hunter2")) {
			t.Errorf("%s: a container's environment reached the snapshot", name)
		}
	}

	// Pages: the same state when the cluster answers one object at a time.
	defer func(n int64) { pageSize = n }(pageSize)
	pageSize = 1
	paged, err := List(context.Background(), c.Dynamic)
	if err != nil {
		t.Fatal(err)
	}
	if !equalState(paged, live) {
		t.Errorf("listing in pages of one differs:\n%s", diffState(paged, live))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
