package kube

import (
	"context"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// GetShared: concurrent readers of one object make one GET, counted at a proxy before the
// local API server; the client's own write drops the entry (the next read sees it); another
// client (the next operation) sees a change made out of band; a missing object is shared as nil.
func TestGetSharedReadsOncePerClient(t *testing.T) {
	ctx := context.Background()
	admin, cl := client(t)
	const name = "shared-read"
	if _, err := admin.Create(ctx, nodePools, pool(name)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.dyn.Resource(nodePools).Delete(context.Background(), name, metav1.DeleteOptions{}) })

	f, cfg := newFront(t, cl, 0, nil)
	c := newClient(t, cfg)
	weightOf := func(obj *unstructured.Unstructured) int64 {
		w, _, _ := unstructured.NestedInt64(obj.Object, "spec", "weight")
		return w
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			obj, err := c.GetShared(ctx, nodePools, name)
			if err != nil || obj == nil || weightOf(obj) != 7 {
				t.Errorf("GetShared = %v, %v", obj, err)
				return
			}
			// Each caller has its own copy.
			_ = unstructured.SetNestedField(obj.Object, int64(1), "spec", "weight")
		}()
	}
	wg.Wait()
	if n := f.requests.Load(); n != 1 {
		t.Errorf("16 concurrent GetShared made %d requests, want 1", n)
	}

	// Changed out of band: a new client (the next operation) reads it again.
	if _, err := admin.dyn.Resource(nodePools).Patch(ctx, name, "application/merge-patch+json", []byte(`{"spec":{"weight":9}}`), metav1.PatchOptions{FieldManager: "kubectl"}); err != nil {
		t.Fatal(err)
	}
	next := newClient(t, cfg)
	if obj, err := next.GetShared(ctx, nodePools, name); err != nil || weightOf(obj) != 9 {
		t.Errorf("the next operation's client read weight %d, %v; want 9", weightOf(obj), err)
	}

	// The client's own write drops the entry.
	before := f.requests.Load()
	p := pool(name)
	_ = unstructured.SetNestedField(p.Object, int64(11), "spec", "weight")
	if _, err := c.Apply(ctx, nodePools, p); err != nil {
		t.Fatal(err)
	}
	if obj, err := c.GetShared(ctx, nodePools, name); err != nil || weightOf(obj) != 11 {
		t.Errorf("after its own apply the client read weight %d, %v; want 11", weightOf(obj), err)
	}
	if n := f.requests.Load() - before; n != 2 {
		t.Errorf("apply and read made %d requests, want 2", n)
	}

	// A missing object is shared too.
	before = f.requests.Load()
	for range 3 {
		if obj, err := c.GetShared(ctx, nodePools, "shared-read-missing"); obj != nil || err != nil {
			t.Errorf("missing object: %v, %v", obj, err)
		}
	}
	if n := f.requests.Load() - before; n != 1 {
		t.Errorf("3 reads of a missing object made %d requests, want 1", n)
	}
}
