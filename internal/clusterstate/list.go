package clusterstate

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// pageSize is the number of objects asked for per list request.
var pageSize int64 = 500

// Resources are what List reads, each with get/list only: the RBAC rules a read-only
// snapshot needs (the guide prints them).
func Resources() []schema.GroupVersionResource {
	out := []schema.GroupVersionResource{
		{Version: "v1", Resource: "nodes"},
		{Version: "v1", Resource: "pods"},
		{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"},
	}
	for _, k := range kinds.All() {
		if k.Role == kinds.Pool || k.Role == kinds.Claim || k.Role == kinds.NodeClass {
			out = append(out, k.GVR())
		}
	}
	return out
}

// List reads the cluster's state through the client, in pages of 500 objects. A kind whose API
// the cluster does not serve (the node class of another cloud) is left out; any other failure
// is an error naming the request.
func List(ctx context.Context, client dynamic.Interface) (*Snapshot, error) {
	s := &Snapshot{}
	for _, gvr := range Resources() {
		if err := s.list(ctx, client, gvr); err != nil {
			return nil, err
		}
	}
	s.sort()
	return s, nil
}

func (s *Snapshot) list(ctx context.Context, client dynamic.Interface, gvr schema.GroupVersionResource) error {
	opts := metav1.ListOptions{Limit: pageSize}
	for {
		page, err := client.Resource(gvr).List(ctx, opts)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("list %s: %w", describe(gvr), err)
		}
		for _, item := range page.Items {
			if s.full(Source{}) {
				return nil
			}
			j, err := json.Marshal(item.Object)
			if err != nil {
				return fmt.Errorf("list %s: %w", describe(gvr), err)
			}
			if err := s.add(Source{}, j); err != nil {
				return fmt.Errorf("list %s: %w", describe(gvr), err)
			}
		}
		if opts.Continue = page.GetContinue(); opts.Continue == "" {
			return nil
		}
	}
}

// describe names a resource as an RBAC rule does: pods, nodeclaims.karpenter.sh.
func describe(gvr schema.GroupVersionResource) string {
	if gvr.Group == "" {
		return gvr.Resource
	}
	return gvr.Resource + "." + gvr.Group
}
