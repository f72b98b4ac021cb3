package kube

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }

var nodePools = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}

func entry(manager string, op metav1.ManagedFieldsOperationType, subresource, fields string) metav1.ManagedFieldsEntry {
	t := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	return metav1.ManagedFieldsEntry{
		Manager: manager, Operation: op, APIVersion: "karpenter.sh/v1", Time: &t, Subresource: subresource,
		FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)},
	}
}

func find(entries []metav1.ManagedFieldsEntry, manager string, subresource string) *metav1.ManagedFieldsEntry {
	for i := range entries {
		if entries[i].Manager == manager && entries[i].Subresource == subresource {
			return &entries[i]
		}
	}
	return nil
}

// What moves and what stays, without an API server.
func TestHandOver(t *testing.T) {
	in := []metav1.ManagedFieldsEntry{
		entry("kubectl-client-side-apply", metav1.ManagedFieldsOperationUpdate, "",
			`{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},"f:spec":{".":{},"f:weight":{}}}`),
		entry("Terraform", metav1.ManagedFieldsOperationApply, "", `{"f:spec":{"f:limits":{"f:cpu":{}}}}`),
		entry("Terraform", metav1.ManagedFieldsOperationApply, "status", `{"f:status":{"f:conditions":{}}}`),
		entry("aks-node-provisioner", metav1.ManagedFieldsOperationApply, "", `{"f:spec":{"f:template":{"f:metadata":{"f:labels":{"f:aks":{}}}}}}`),
		entry("helm", metav1.ManagedFieldsOperationUpdate, "", `{"f:metadata":{"f:labels":{"f:app.kubernetes.io/managed-by":{}}}}`),
	}
	before := slices.Clone(in)
	from := []string{"Terraform", "kubectl", "kubectl-client-side-apply", "helm"}
	now := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))

	out, taken, err := HandOver(in, from, FieldManager, "karpenter.sh/v1", now)
	if err != nil {
		t.Fatal(err)
	}
	// helm owns no spec field: nothing of it is taken.
	if want := []string{"Terraform", "kubectl-client-side-apply"}; !slices.Equal(taken, want) {
		t.Errorf("taken = %v, want %v", taken, want)
	}
	ours := find(out, FieldManager, "")
	if ours == nil || ours.Operation != metav1.ManagedFieldsOperationApply || ours.APIVersion != "karpenter.sh/v1" || !ours.Time.Equal(&now) {
		t.Fatalf("provider entry = %+v", ours)
	}
	if got, want := string(ours.FieldsV1.Raw), `{"f:spec":{".":{},"f:limits":{"f:cpu":{}},"f:weight":{}}}`; got != want {
		t.Errorf("provider fields = %s, want %s", got, want)
	}
	// The annotation stays with kubectl, which keeps an entry for it only.
	if e := find(out, "kubectl-client-side-apply", ""); e == nil || strings.Contains(string(e.FieldsV1.Raw), "f:spec") {
		t.Errorf("kubectl-client-side-apply entry = %+v, want one with its metadata only", e)
	}
	if e := find(out, "Terraform", ""); e != nil {
		t.Errorf("Terraform's main entry kept: %s", e.FieldsV1.Raw)
	}
	if e := find(out, "Terraform", "status"); e == nil {
		t.Error("Terraform's status entry dropped")
	}
	if e := find(out, "aks-node-provisioner", ""); e == nil || string(e.FieldsV1.Raw) != string(before[3].FieldsV1.Raw) {
		t.Errorf("aks-node-provisioner entry changed: %+v", e)
	}
	if e := find(out, "helm", ""); e == nil {
		t.Error("helm entry dropped")
	}
	for i := range in {
		if string(in[i].FieldsV1.Raw) != string(before[i].FieldsV1.Raw) || in[i].Manager != before[i].Manager {
			t.Errorf("input entry %d modified", i)
		}
	}

	// An existing Apply entry of the provider is extended, not duplicated.
	out2, taken2, err := HandOver(append(slices.Clone(in), entry(FieldManager, metav1.ManagedFieldsOperationApply, "", `{"f:spec":{"f:disruption":{"f:budgets":{}}}}`)),
		from, FieldManager, "karpenter.sh/v1", now)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range out2 {
		if e.Manager == FieldManager {
			n++
			if got, want := string(e.FieldsV1.Raw), `{"f:spec":{".":{},"f:disruption":{"f:budgets":{}},"f:limits":{"f:cpu":{}},"f:weight":{}}}`; got != want {
				t.Errorf("provider fields = %s, want %s", got, want)
			}
		}
	}
	if n != 1 || len(taken2) != 2 {
		t.Errorf("%d provider entries, taken %v", n, taken2)
	}

	// None of the managers present: the entries come back as they were.
	out3, taken3, err := HandOver(in, []string{"kustomize-controller"}, FieldManager, "karpenter.sh/v1", now)
	if err != nil || len(taken3) != 0 || len(out3) != len(in) {
		t.Errorf("HandOver with no manager present = %d entries, %v, %v", len(out3), taken3, err)
	}
}

func pool(name string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"weight": int64(7),
			"template": map[string]any{"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
				"requirements": []any{map[string]any{"key": "kubernetes.io/arch", "operator": "In", "values": []any{"amd64"}}},
			}},
		},
	}}
}

func client(t *testing.T) (*Client, *testenv.Cluster) {
	t.Helper()
	cl := testenv.Get(t)
	c, err := New(cl.Config)
	if err != nil {
		t.Fatal(err)
	}
	return c, cl
}

func managers(obj *unstructured.Unstructured) []string {
	var out []string
	for _, e := range obj.GetManagedFields() {
		out = append(out, e.Manager+"/"+string(e.Operation))
	}
	return out
}

// On a real API server: the fields kubectl created become the provider's, and the provider's
// next apply without spec.weight removes it.
func TestTakeOwnershipThenApplyRemovesField(t *testing.T) {
	c, cl := client(t)
	ctx := context.Background()
	name := "kube-take-ownership"
	if _, err := cl.Dynamic.Resource(nodePools).Create(ctx, pool(name), metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Dynamic.Resource(nodePools).Delete(ctx, name, metav1.DeleteOptions{}) })

	taken, err := c.TakeOwnership(ctx, nodePools, name, []string{"kubectl", "kubectl-client-side-apply"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(taken, []string{"kubectl-client-side-apply"}) {
		t.Errorf("taken = %v", taken)
	}
	obj, err := c.Get(ctx, nodePools, name)
	if err != nil {
		t.Fatal(err)
	}
	if e := find(obj.GetManagedFields(), "kubectl-client-side-apply", ""); e != nil {
		t.Errorf("kubectl-client-side-apply still listed: %v", managers(obj))
	}
	ours := find(obj.GetManagedFields(), FieldManager, "")
	if ours == nil || ours.Operation != metav1.ManagedFieldsOperationApply || !strings.Contains(string(ours.FieldsV1.Raw), `"f:weight"`) {
		t.Fatalf("provider entry = %+v (managers %v)", ours, managers(obj))
	}

	// Taking over again finds nothing and writes nothing.
	rv := obj.GetResourceVersion()
	if taken, err := c.TakeOwnership(ctx, nodePools, name, []string{"kubectl-client-side-apply"}); err != nil || len(taken) != 0 {
		t.Errorf("second TakeOwnership = %v, %v", taken, err)
	}
	if obj, _ := c.Get(ctx, nodePools, name); obj.GetResourceVersion() != rv {
		t.Errorf("second TakeOwnership wrote the object")
	}

	desired := pool(name)
	unstructured.RemoveNestedField(desired.Object, "spec", "weight")
	live, err := c.Apply(ctx, nodePools, desired)
	if err != nil {
		t.Fatal(err)
	}
	if w, found, _ := unstructured.NestedFieldNoCopy(live.Object, "spec", "weight"); found {
		t.Errorf("spec.weight = %v after the apply without it, want it removed", w)
	}
}

// The object changes between the read and the patch: the patch fails with a conflict and
// changes nothing.
func TestTakeOwnershipConflict(t *testing.T) {
	c, cl := client(t)
	ctx := context.Background()
	name := "kube-take-ownership-conflict"
	if _, err := cl.Dynamic.Resource(nodePools).Create(ctx, pool(name), metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Dynamic.Resource(nodePools).Delete(ctx, name, metav1.DeleteOptions{}) })
	stale, err := c.Get(ctx, nodePools, name)
	if err != nil {
		t.Fatal(err)
	}

	// Someone else writes the object after it was read.
	changed := stale.DeepCopy()
	_ = unstructured.SetNestedField(changed.Object, int64(8), "spec", "weight")
	changed, err = cl.Dynamic.Resource(nodePools).Update(ctx, changed, metav1.UpdateOptions{FieldManager: "kubectl-edit"})
	if err != nil {
		t.Fatal(err)
	}

	taken, err := c.takeOwnership(ctx, nodePools, stale, []string{"kubectl-client-side-apply", "kubectl-edit"})
	var conflict *ConflictError
	if !errors.As(err, &conflict) {
		t.Fatalf("takeOwnership with a stale object = %v, %v; want a *ConflictError", taken, err)
	}
	if conflict.ResourceVersion != stale.GetResourceVersion() || !strings.Contains(err.Error(), name) {
		t.Errorf("conflict error = %v", err)
	}
	after, err := c.Get(ctx, nodePools, name)
	if err != nil {
		t.Fatal(err)
	}
	if after.GetResourceVersion() != changed.GetResourceVersion() {
		t.Errorf("resourceVersion %s after the failed patch, want %s (unchanged)", after.GetResourceVersion(), changed.GetResourceVersion())
	}
	if got, want := managers(after), managers(changed); !slices.Equal(got, want) {
		t.Errorf("managers after the failed patch = %v, want %v", got, want)
	}
	if find(after.GetManagedFields(), FieldManager, "") != nil {
		t.Error("the provider became a manager despite the conflict")
	}

	// With a fresh read the same call succeeds.
	if taken, err := c.TakeOwnership(ctx, nodePools, name, []string{"kubectl-client-side-apply", "kubectl-edit"}); err != nil || !slices.Equal(taken, []string{"kubectl-client-side-apply", "kubectl-edit"}) {
		t.Errorf("TakeOwnership after a fresh read = %v, %v", taken, err)
	}
}
