package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// FieldManager owns the fields this provider writes with server-side apply.
const FieldManager = "terraform-provider-karpenter"

// Client is a dynamic client for cluster-scoped custom resources. Every request is retried
// on transient failures within the context's deadline (Retry) and fails with a
// *RequestError that says what kind of failure it was.
type Client struct {
	dyn dynamic.Interface
	// PollInterval is how often deletion progress is checked.
	PollInterval time.Duration
	// Retry bounds the retries of transient failures.
	Retry Retry
	// OnRetry, when set, is told of each failure that is retried and the wait before the next
	// attempt, so that a slow apply says why in the logs.
	OnRetry func(ctx context.Context, failed *RequestError, wait time.Duration)
	// shared holds GetShared's reads.
	shared sharedReads
}

// New returns a client for the cluster that cfg points at. It makes no request. Its
// requests share cfg's client-side rate limit (QPS, Burst).
func New(cfg *rest.Config) (*Client, error) {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{dyn: dyn, PollInterval: 2 * time.Second, Retry: DefaultRetry}, nil
}

// Get returns the object, or nil when it does not exist.
func (c *Client) Get(ctx context.Context, gvr schema.GroupVersionResource, name string) (*unstructured.Unstructured, error) {
	var obj *unstructured.Unstructured
	err := c.do(ctx, "get", gvr, name, func(ctx context.Context, _ int) error {
		var err error
		obj, err = c.dyn.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			obj, err = nil, nil
		}
		return err
	})
	return obj, err
}

// List returns the objects of a resource that match a label selector.
func (c *Client) List(ctx context.Context, gvr schema.GroupVersionResource, selector string) ([]unstructured.Unstructured, error) {
	var items []unstructured.Unstructured
	err := c.do(ctx, "list", gvr, "", func(ctx context.Context, _ int) error {
		l, err := c.dyn.Resource(gvr).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err == nil {
			items = l.Items
		}
		return err
	})
	return items, err
}

// Apply writes obj with server-side apply. Conflicts are forced: Terraform is the declared
// owner of the fields in its configuration, also when they were last set by kubectl or AKS.
// Fields this manager applied before and no longer sends are removed by the API server.
// Server-side apply creates an object that does not exist; Create is the way to create one.
func (c *Client) Apply(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	c.wrote(gvr, obj.GetName())
	defer c.wrote(gvr, obj.GetName())
	var live *unstructured.Unstructured
	// RBAC sees an apply as the verb patch.
	err := c.do(ctx, "patch", gvr, obj.GetName(), func(ctx context.Context, _ int) error {
		var err error
		live, err = c.dyn.Resource(gvr).Apply(ctx, obj.GetName(), obj, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
		return err
	})
	return live, err
}

// Create creates obj, failing with an *AlreadyExistsError when an object of that name exists,
// so that Terraform never takes over an object it did not create (import is the way to adopt
// one). The check is the API server's own: the object is POSTed, which only one writer of a
// name can win. A read before a forced apply, instead, leaves a window in which an object
// another client creates is silently adopted.
//
// The POST records the fields under an Update entry of FieldManager, which a later apply
// would share rather than replace, so that a field removed from the configuration would stay;
// Create then turns that entry into FieldManager's Apply entry, as if the object had been
// applied. When that fails, the object is created all the same: Create returns it with the
// error, so that the caller can still record it as its own.
func (c *Client) Create(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	name := obj.GetName()
	c.wrote(gvr, name)
	defer c.wrote(gvr, name)
	var created *unstructured.Unstructured
	err := c.do(ctx, "create", gvr, name, func(ctx context.Context, attempt int) error {
		var err error
		created, err = c.dyn.Resource(gvr).Create(ctx, obj, metav1.CreateOptions{FieldManager: FieldManager})
		if !apierrors.IsAlreadyExists(err) {
			return err
		}
		// A retry after a lost answer finds the object its own first attempt created.
		if attempt > 1 {
			if live, gerr := c.dyn.Resource(gvr).Get(ctx, name, metav1.GetOptions{}); gerr == nil && createdHere(live) {
				created = live
				return nil
			}
		}
		return &AlreadyExistsError{Kind: obj.GetKind(), Name: name}
	})
	if err != nil {
		return nil, err
	}
	live, err := c.ownCreated(ctx, gvr, created)
	if err != nil {
		return created, err
	}
	return live, nil
}

// createdHere reports whether the object has fields FieldManager wrote with a create (an
// Update entry): another writer's object has none.
func createdHere(obj *unstructured.Unstructured) bool {
	return slices.ContainsFunc(obj.GetManagedFields(), createEntry)
}

func createEntry(e metav1.ManagedFieldsEntry) bool {
	return e.Manager == FieldManager && e.Operation == metav1.ManagedFieldsOperationUpdate && e.Subresource == ""
}

// ownCreated turns FieldManager's Update entry of a created object into its Apply entry, with
// a JSON patch that tests the resourceVersion, re-read and retried when another writer got in
// between: the object is the provider's by then.
func (c *Client) ownCreated(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	name := obj.GetName()
	for range 5 {
		entries := obj.GetManagedFields()
		i := slices.IndexFunc(entries, createEntry)
		if i < 0 {
			return obj, nil
		}
		entries[i].Operation = metav1.ManagedFieldsOperationApply
		if j := slices.IndexFunc(entries, func(e metav1.ManagedFieldsEntry) bool {
			return e.Manager == FieldManager && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == ""
		}); j >= 0 && j != i {
			// Another apply of the provider got in between: its entry is the one to keep.
			entries = slices.Delete(entries, i, i+1)
		}
		patch, err := json.Marshal([]map[string]any{
			{"op": "test", "path": "/metadata/resourceVersion", "value": obj.GetResourceVersion()},
			{"op": "replace", "path": "/metadata/managedFields", "value": entries},
		})
		if err != nil {
			return nil, err
		}
		var live *unstructured.Unstructured
		err = c.do(ctx, "patch", gvr, obj.GetName(), func(ctx context.Context, _ int) error {
			var err error
			live, err = c.dyn.Resource(gvr).Patch(ctx, obj.GetName(), types.JSONPatchType, patch, metav1.PatchOptions{FieldManager: FieldManager})
			return err
		})
		if err == nil {
			return live, nil
		}
		if !c.changed(ctx, gvr, obj, err) {
			return nil, err
		}
		if obj, err = c.Get(ctx, gvr, name); err != nil {
			return nil, err
		}
		if obj == nil {
			return nil, fmt.Errorf("%s %q was deleted by another client right after it was created", gvr.Resource, name)
		}
	}
	return nil, fmt.Errorf("%s %q was created, but kept changing while its fields were being recorded as applied", gvr.Resource, name)
}

// AlreadyExistsError says that Create found an object of the same name.
type AlreadyExistsError struct{ Kind, Name string }

func (e *AlreadyExistsError) Error() string {
	return fmt.Sprintf("%s %q already exists in the cluster", e.Kind, e.Name)
}

// Delete asks the API server to delete the object and waits until it is gone. Karpenter's
// finalizers keep a NodePool until its nodes are drained, which can take long; progress is
// reported through the callback at every poll, with the object as it stands.
func (c *Client) Delete(ctx context.Context, gvr schema.GroupVersionResource, name string, progress func(*unstructured.Unstructured)) error {
	c.wrote(gvr, name)
	defer c.wrote(gvr, name)
	policy := metav1.DeletePropagationBackground
	err := c.do(ctx, "delete", gvr, name, func(ctx context.Context, _ int) error {
		err := c.dyn.Resource(gvr).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &policy})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	t := time.NewTicker(c.PollInterval)
	defer t.Stop()
	for {
		obj, err := c.Get(ctx, gvr, name)
		if err != nil {
			return err
		}
		if obj == nil {
			return nil
		}
		if progress != nil {
			progress(obj)
		}
		select {
		case <-ctx.Done():
			return &StillPresentError{Object: obj, Err: ctx.Err()}
		case <-t.C:
		}
	}
}

// StillPresentError says that an object outlived the wait for its deletion.
type StillPresentError struct {
	Object *unstructured.Unstructured
	Err    error
}

func (e *StillPresentError) Error() string {
	return fmt.Sprintf("%s %q is still present (finalizers %v): %v", e.Object.GetKind(), e.Object.GetName(), e.Object.GetFinalizers(), e.Err)
}

func (e *StillPresentError) Unwrap() error { return e.Err }
