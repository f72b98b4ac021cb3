package runningnodes

import (
	"context"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

var nodeClaims = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}

// Claims describes the NodeClaims of one pool on one node class.
type Claims struct {
	// Pool is the NodePool they belong to (the karpenter.sh/nodepool label).
	Pool string
	// Group, Kind and Name are their nodeClassRef.
	Group, Kind, Name string
	// InstanceType is the size each was launched as.
	InstanceType string
	// Labels are the node labels beside the pool, the instance type and the capacity type
	// (on-demand), as Karpenter copies them from the launch.
	Labels map[string]string
	// Annotations are set as given (e.g. the pool's hash, which Karpenter stamps at launch).
	Annotations map[string]string
}

// Launch creates n NodeClaims of c, named <pool>-<i>, with the Launched condition Karpenter's
// drift check requires, and deletes them when the test ends.
func Launch(t testing.TB, dyn dynamic.Interface, c Claims, n int) {
	t.Helper()
	ctx := context.Background()
	labels := map[string]any{karpv1.NodePoolLabelKey: c.Pool, "node.kubernetes.io/instance-type": c.InstanceType, karpv1.CapacityTypeLabelKey: "on-demand"}
	for k, v := range c.Labels {
		labels[k] = v
	}
	annotations := map[string]any{}
	for k, v := range c.Annotations {
		annotations[k] = v
	}
	for i := range n {
		name := fmt.Sprintf("%s-%d", c.Pool, i)
		obj := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "karpenter.sh/v1", "kind": "NodeClaim",
			"metadata": map[string]any{"name": name, "labels": labels, "annotations": annotations},
			"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": c.Group, "kind": c.Kind, "name": c.Name},
				"requirements": []any{map[string]any{"key": "node.kubernetes.io/instance-type", "operator": "In", "values": []any{c.InstanceType}}},
			},
		}}
		got, err := dyn.Resource(nodeClaims).Create(ctx, obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatalf("create NodeClaim %s: %v", name, err)
		}
		// Karpenter's drift check judges launched NodeClaims only.
		got.Object["status"] = map[string]any{"nodeName": "node-" + name, "conditions": []any{map[string]any{
			"type": "Launched", "status": "True", "reason": "Launched", "message": "", "lastTransitionTime": "2026-12-01T00:00:00Z",
		}}}
		if _, err := dyn.Resource(nodeClaims).UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("set the status of NodeClaim %s: %v", name, err)
		}
		t.Cleanup(func() { _ = dyn.Resource(nodeClaims).Delete(context.Background(), name, metav1.DeleteOptions{}) })
	}
}
