package kube

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// TakeOwnership hands the spec fields that the field managers named in from own in the object
// over to FieldManager's server-side apply entry, so that the next apply under FieldManager
// removes those it no longer sends: the fields of an object that kubectl, Helm or the
// hashicorp/kubernetes provider created become the provider's after an import, and a field
// later removed from the configuration is removed from the object.
//
// Only the main resource's entries are changed (not the status subresource's), any operation
// (Update or Apply). Fields outside spec, such as labels and annotations in metadata, are not
// part of the resources' configuration and stay with their manager: taking them over would
// make the next apply remove them without a plan showing it. An entry left with nothing is
// dropped. Other managers (controllers, AKS) keep their fields.
//
// The new managed fields are written with a JSON patch that first tests the resourceVersion
// that was read, so that a change in between fails with a *ConflictError and changes nothing.
// It returns the managers whose fields were taken over, sorted; none (and no request beyond
// the read) when none of them owns a spec field, or when the object does not exist.
func (c *Client) TakeOwnership(ctx context.Context, gvr schema.GroupVersionResource, name string, from []string) ([]string, error) {
	if len(from) == 0 {
		return nil, nil
	}
	obj, err := c.Get(ctx, gvr, name)
	if err != nil {
		return nil, fmt.Errorf("reading %s %q: %w", gvr.Resource, name, err)
	}
	if obj == nil {
		return nil, nil
	}
	return c.takeOwnership(ctx, gvr, obj, from)
}

// takeOwnership is TakeOwnership of obj as it was read: the patch is made against its
// resourceVersion.
func (c *Client) takeOwnership(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured, from []string) ([]string, error) {
	c.wrote(gvr, obj.GetName())
	defer c.wrote(gvr, obj.GetName())
	entries, taken, err := HandOver(obj.GetManagedFields(), from, FieldManager, obj.GetAPIVersion(), metav1.Now())
	if err != nil {
		return nil, fmt.Errorf("%s %q: %w", obj.GetKind(), obj.GetName(), err)
	}
	if len(taken) == 0 {
		return nil, nil
	}
	rv := obj.GetResourceVersion()
	patch, err := json.Marshal([]map[string]any{
		{"op": "test", "path": "/metadata/resourceVersion", "value": rv},
		{"op": "replace", "path": "/metadata/managedFields", "value": entries},
	})
	if err != nil {
		return nil, err
	}
	// Not retried by c.do: a retry after a lost answer would fail its own test operation.
	_, err = c.dyn.Resource(gvr).Patch(ctx, obj.GetName(), types.JSONPatchType, patch, metav1.PatchOptions{FieldManager: FieldManager})
	if err == nil {
		return taken, nil
	}
	if c.changed(ctx, gvr, obj, err) {
		return nil, &ConflictError{Kind: obj.GetKind(), Name: obj.GetName(), ResourceVersion: rv, Err: err}
	}
	return nil, fmt.Errorf("writing the managed fields of %s %q: %w", obj.GetKind(), obj.GetName(),
		&RequestError{Verb: "patch", Resource: gvr.GroupResource(), Name: obj.GetName(), Failure: Classify(ctx, err), Attempts: 1, Err: err})
}

// changed reports whether the patch of obj failed because the object changed since it was
// read. A failed JSON patch test comes back as 422 Invalid without saying which operation
// failed, so the object is read again to tell a changed resourceVersion from another error.
func (c *Client) changed(ctx context.Context, gvr schema.GroupVersionResource, obj *unstructured.Unstructured, err error) bool {
	switch {
	case apierrors.IsConflict(err), apierrors.IsNotFound(err):
		return true
	case !apierrors.IsInvalid(err):
		return false
	}
	now, gerr := c.Get(ctx, gvr, obj.GetName())
	return gerr == nil && (now == nil || now.GetResourceVersion() != obj.GetResourceVersion())
}

// ConflictError says that the object changed after its managed fields were read, so that
// TakeOwnership did not write them: nothing was changed.
type ConflictError struct {
	Kind, Name      string
	ResourceVersion string // the one that was read
	Err             error
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s %q changed after its managed fields were read (resourceVersion %s), so they were not written: %v",
		e.Kind, e.Name, e.ResourceVersion, e.Err)
}

func (e *ConflictError) Unwrap() error { return e.Err }

// HandOver returns entries with the spec fields of the main resource's entries of the managers
// in from merged into manager's Apply entry, which is added with apiVersion and the time now
// when there is none; an entry left without fields is dropped. taken names the managers whose
// fields moved, sorted; when it is empty, entries are returned unchanged. The input is not
// modified.
//
// Unlike k8s.io/client-go/util/csaupgrade, which upgrades Update (client-side apply) entries
// only and unions only the entry of the target's apiVersion, this takes Apply entries too (the
// kubectl and Terraform managers of server-side apply), unions the entries of every apiVersion
// (the Karpenter CRDs' versions share their schema, without conversion) and leaves fields
// outside spec where they are.
func HandOver(entries []metav1.ManagedFieldsEntry, from []string, manager, apiVersion string, now metav1.Time) (out []metav1.ManagedFieldsEntry, taken []string, err error) {
	gained := &fieldpath.Set{}
	out = make([]metav1.ManagedFieldsEntry, 0, len(entries)+1)
	ours := -1
	for _, e := range entries {
		if e.Subresource != "" || e.Manager == manager || !slices.Contains(from, e.Manager) || e.FieldsV1 == nil {
			if e.Manager == manager && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == "" && ours < 0 {
				ours = len(out)
			}
			out = append(out, e)
			continue
		}
		set, err := decodeFields(e)
		if err != nil {
			return nil, nil, err
		}
		spec, rest := splitSpec(set)
		if spec.Empty() {
			out = append(out, e)
			continue
		}
		gained = gained.Union(spec)
		if !slices.Contains(taken, e.Manager) {
			taken = append(taken, e.Manager)
		}
		if !rest.Empty() {
			if e.FieldsV1, err = encodeFields(rest); err != nil {
				return nil, nil, err
			}
			out = append(out, e)
		}
	}
	if len(taken) == 0 {
		return entries, nil, nil
	}
	slices.Sort(taken)
	if ours < 0 {
		out = append(out, metav1.ManagedFieldsEntry{
			Manager: manager, Operation: metav1.ManagedFieldsOperationApply, APIVersion: apiVersion,
			Time: &now, FieldsType: "FieldsV1",
		})
		ours = len(out) - 1
	} else if out[ours].FieldsV1 != nil {
		set, err := decodeFields(out[ours])
		if err != nil {
			return nil, nil, err
		}
		gained = set.Union(gained)
	}
	if out[ours].FieldsV1, err = encodeFields(gained); err != nil {
		return nil, nil, err
	}
	return out, taken, nil
}

// splitSpec divides a field set into the fields under spec (and spec itself) and the rest.
func splitSpec(s *fieldpath.Set) (spec, rest *fieldpath.Set) {
	spec, rest = &fieldpath.Set{}, &fieldpath.Set{}
	for p := range s.All() {
		if len(p) > 0 && p[0].FieldName != nil && *p[0].FieldName == "spec" {
			spec.Insert(p)
		} else {
			rest.Insert(p)
		}
	}
	return spec, rest
}

func decodeFields(e metav1.ManagedFieldsEntry) (*fieldpath.Set, error) {
	s := &fieldpath.Set{}
	if err := s.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
		return nil, fmt.Errorf("decoding the managed fields of %q (%s %s): %w", e.Manager, e.Operation, e.APIVersion, err)
	}
	return s, nil
}

func encodeFields(s *fieldpath.Set) (*metav1.FieldsV1, error) {
	raw, err := s.ToJSON()
	if err != nil {
		return nil, fmt.Errorf("encoding managed fields: %w", err)
	}
	return &metav1.FieldsV1{Raw: raw}, nil
}
