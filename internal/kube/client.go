// Package kube reads and writes Karpenter objects through the Kubernetes API with client-go:
// server-side apply under the provider's own field manager, reads, and deletion that waits
// until the object is really gone. It has no Terraform imports.
package kube

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// FieldManager owns the fields this provider writes with server-side apply.
const FieldManager = "terraform-provider-karpenter"

// Client is a dynamic client for cluster-scoped custom resources.
type Client struct {
	dyn dynamic.Interface
	// PollInterval is how often deletion progress is checked.
	PollInterval time.Duration
}

// New returns a client for the cluster that cfg points at. It makes no request.
func New(cfg *rest.Config) (*Client, error) {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{dyn: dyn, PollInterval: 2 * time.Second}, nil
}

// Get returns the object, or nil when it does not exist.
func (c *Client) Get(ctx context.Context, gvr schema.GroupVersionResource, name string) (*unstructured.Unstructured, error) {
	obj, err := c.dyn.Resource(gvr).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	return obj, err
}

// List returns the objects of a resource that match a label selector.
func (c *Client) List(ctx context.Context, gvr schema.GroupVersionResource, selector string) ([]unstructured.Unstructured, error) {
	l, err := c.dyn.Resource(gvr).List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	return l.Items, nil
}

// Apply writes obj with server-side apply. Conflicts are forced: Terraform is the declared
// owner of the fields in its configuration, also when they were last set by kubectl or AKS.
// Fields this manager applied before and no longer sends are removed by the API server.
func (c *Client) Apply(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	return c.dyn.Resource(gvr).Apply(ctx, obj.GetName(), obj, metav1.ApplyOptions{FieldManager: FieldManager, Force: true})
}

// Create applies obj only if no object of that name exists yet, so that Terraform never
// silently takes over an object it did not create (import is the way to adopt one).
func (c *Client) Create(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	existing, err := c.Get(ctx, gvr, obj.GetName())
	if err != nil {
		return nil, err
	}
	if existing != nil {
		return nil, &AlreadyExistsError{Kind: obj.GetKind(), Name: obj.GetName()}
	}
	return c.Apply(ctx, gvr, obj)
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
	policy := metav1.DeletePropagationBackground
	err := c.dyn.Resource(gvr).Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &policy})
	if apierrors.IsNotFound(err) {
		return nil
	}
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
