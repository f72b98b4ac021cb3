package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// KarpenterCRDs are the CRDs that Karpenter resources in a configuration are written as; a
// NodePool or AKSNodeClass created before they are Established is rejected by the API server.
var KarpenterCRDs = []string{"nodepools.karpenter.sh", "aksnodeclasses.karpenter.azure.com"}

// CRDClient reads and installs CustomResourceDefinitions.
type CRDClient struct {
	cs clientset.Interface
	// PollInterval is how often WaitEstablished looks again.
	PollInterval time.Duration
}

// NewCRDClient returns a client for the cluster cfg points at. It makes no request.
func NewCRDClient(cfg *rest.Config) (*CRDClient, error) {
	cs, err := clientset.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &CRDClient{cs: cs, PollInterval: 2 * time.Second}, nil
}

// CRDState is what the API server says about one CRD.
type CRDState struct {
	Present     bool
	Established bool
	// Reason explains a CRD that is present but not Established (the condition's message).
	Reason string
	// Annotations are the CRD's annotations.
	Annotations map[string]string
}

// States returns the state of each named CRD.
func (c *CRDClient) States(ctx context.Context, names []string) (map[string]CRDState, error) {
	out := make(map[string]CRDState, len(names))
	for _, n := range names {
		crd, err := c.cs.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, n, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			out[n] = CRDState{}
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading CRD %s: %w", n, err)
		}
		out[n] = state(crd)
		s := out[n]
		s.Annotations = crd.Annotations
		out[n] = s
	}
	return out, nil
}

func state(crd *apiextensionsv1.CustomResourceDefinition) CRDState {
	s := CRDState{Present: true, Reason: "no Established condition yet"}
	if crd.DeletionTimestamp != nil {
		s.Reason = "being deleted"
		return s
	}
	for _, cond := range crd.Status.Conditions {
		if cond.Type != apiextensionsv1.Established {
			continue
		}
		if cond.Status == apiextensionsv1.ConditionTrue {
			return CRDState{Present: true, Established: true}
		}
		s.Reason = strings.TrimSpace(cond.Reason + " " + cond.Message)
	}
	return s
}

// AllEstablished says whether every state in m is Established.
func AllEstablished(m map[string]CRDState) bool {
	for _, s := range m {
		if !s.Established {
			return false
		}
	}
	return len(m) > 0
}

// Describe lists what is missing, e.g. `aksnodeclasses.karpenter.azure.com (not installed)`.
func Describe(m map[string]CRDState) string {
	var parts []string
	for n, s := range m {
		switch {
		case !s.Present:
			parts = append(parts, n+" (not installed)")
		case !s.Established:
			parts = append(parts, n+" (not Established: "+s.Reason+")")
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// WaitEstablished waits until every named CRD is Established, reporting what is still missing
// at each poll, and fails when ctx ends first with the last state it saw.
func (c *CRDClient) WaitEstablished(ctx context.Context, names []string, progress func(string)) error {
	t := time.NewTicker(c.PollInterval)
	defer t.Stop()
	// seen is what the API server last said; when the wait runs out, that is the useful part,
	// not the error of a request cut short by the deadline.
	var seen, why string
	for {
		m, err := c.States(ctx, names)
		if err == nil && AllEstablished(m) {
			return nil
		}
		if err == nil {
			seen = Describe(m)
			why = seen
		} else {
			why = err.Error()
		}
		if progress != nil {
			progress("waiting for CRDs: " + why)
		}
		select {
		case <-ctx.Done():
			if seen != "" {
				why = seen
			}
			return fmt.Errorf("CRDs not Established: %s: %w", why, ctx.Err())
		case <-t.C:
		}
	}
}

// Apply installs or upgrades CRDs with server-side apply under the provider's field manager.
// Conflicts are forced: when this provider is asked to manage the CRDs, it owns them, also
// when they were last written by a Helm chart or kubectl.
func (c *CRDClient) Apply(ctx context.Context, crds []*apiextensionsv1.CustomResourceDefinition) error {
	for _, crd := range crds {
		body, err := applyBody(crd)
		if err != nil {
			return err
		}
		force := true
		_, err = c.cs.ApiextensionsV1().CustomResourceDefinitions().Patch(ctx, crd.Name, types.ApplyPatchType, body,
			metav1.PatchOptions{FieldManager: FieldManager, Force: &force})
		if err != nil {
			return fmt.Errorf("applying CRD %s: %w", crd.Name, err)
		}
	}
	return nil
}

// applyBody is the apply configuration of a CRD: only what a manifest declares. Server-set
// metadata and status would otherwise be claimed by this field manager, or rejected.
func applyBody(crd *apiextensionsv1.CustomResourceDefinition) ([]byte, error) {
	b, err := json.Marshal(crd)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["apiVersion"] = apiextensionsv1.SchemeGroupVersion.String()
	m["kind"] = "CustomResourceDefinition"
	delete(m, "status")
	if md, ok := m["metadata"].(map[string]any); ok {
		for _, k := range []string{"creationTimestamp", "resourceVersion", "uid", "generation", "managedFields"} {
			delete(md, k)
		}
	}
	return json.Marshal(m)
}
