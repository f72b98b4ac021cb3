package kube

import (
	"context"
	"sync"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// sharedReads memoises GetShared for the client's lifetime. A client lives for one provider
// configuration, which Terraform makes anew for every walk (plan, apply, refresh), so a value
// is shared within one operation and never served to the next: an object changed by someone
// else between two plans is read again by the second. Writes through this client (apply,
// create, delete, ownership hand-over) drop the object's entry, so a read after them sees them.
type sharedReads struct {
	mu sync.Mutex
	m  map[sharedKey]*sharedRead
}

type sharedKey struct {
	gvr  schema.GroupVersionResource
	name string
}

// sharedRead is one GET in flight or done; done is closed when obj and err are set.
type sharedRead struct {
	done chan struct{}
	obj  *unstructured.Unstructured
	err  error
}

// GetShared is Get, read once per object for all callers of this client: the first caller
// sends the GET, callers that come while it is in flight wait for its answer, later ones get
// it at once. Failures are not kept (the next caller asks again), and a caller whose wait is
// cut short, or whose leader failed, reads for itself. Each caller gets its own copy. It is for
// reads many resources make of the same object in one operation (every pool's node class
// after its refresh); a resource's read of itself uses Get.
func (c *Client) GetShared(ctx context.Context, gvr schema.GroupVersionResource, name string) (*unstructured.Unstructured, error) {
	k := sharedKey{gvr, name}
	c.shared.mu.Lock()
	if c.shared.m == nil {
		c.shared.m = map[sharedKey]*sharedRead{}
	}
	r, found := c.shared.m[k]
	if !found {
		r = &sharedRead{done: make(chan struct{})}
		c.shared.m[k] = r
	}
	c.shared.mu.Unlock()

	if !found {
		r.obj, r.err = c.Get(ctx, gvr, name)
		if r.err != nil {
			c.shared.forget(k, r)
		}
		close(r.done)
		return copyOf(r.obj), r.err
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		return c.Get(ctx, gvr, name)
	}
	if r.err != nil {
		return c.Get(ctx, gvr, name)
	}
	return copyOf(r.obj), nil
}

// forget drops the object's entry (only r, when given: a newer read stays).
func (s *sharedReads) forget(k sharedKey, r *sharedRead) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cur, ok := s.m[k]; ok && (r == nil || cur == r) {
		delete(s.m, k)
	}
}

// wrote is called before every write of an object through the client, and again after it,
// so that a read racing the write is not kept either.
func (c *Client) wrote(gvr schema.GroupVersionResource, name string) {
	c.shared.forget(sharedKey{gvr, name}, nil)
}

func copyOf(obj *unstructured.Unstructured) *unstructured.Unstructured {
	if obj == nil {
		return nil
	}
	return obj.DeepCopy()
}
