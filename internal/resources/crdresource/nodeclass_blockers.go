package crdresource

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// NodeClassBlockers is the DeletionBlockers of a node-class kind: Karpenter's termination
// finalizer keeps a node class while NodeClaims launched from it exist, and NodePools that
// reference it cannot launch nodes. Only references to this kind count, so an AKSNodeClass and
// an EC2NodeClass of the same name do not answer for each other.
func NodeClassBlockers(k *kinds.Kind) func(ctx context.Context, c *kube.Client, obj *unstructured.Unstructured) string {
	return func(ctx context.Context, c *kube.Client, obj *unstructured.Unstructured) string {
		refers := func(o map[string]any, path ...string) bool {
			ref, _, _ := unstructured.NestedStringMap(o, path...)
			return ref["name"] == obj.GetName() && ref["kind"] == k.GVK.Kind
		}
		var parts []string
		pools, err := c.List(ctx, kinds.NodePool.GVR(), "")
		if err != nil {
			return fmt.Sprintf("Could not list NodePools: %v.", err)
		}
		var users []string
		for _, p := range pools {
			if refers(p.Object, "spec", "template", "spec", "nodeClassRef") {
				users = append(users, p.GetName())
			}
		}
		sort.Strings(users)
		if len(users) > 0 {
			parts = append(parts, fmt.Sprintf("NodePools that reference it: %s.", strings.Join(users, ", ")))
		}
		if claims, err := c.List(ctx, kinds.NodeClaim.GVR(), ""); err == nil {
			var held []string
			for _, nc := range claims {
				if refers(nc.Object, "spec", "nodeClassRef") {
					held = append(held, nc.GetName())
				}
			}
			sort.Strings(held)
			if len(held) > 0 {
				parts = append(parts, fmt.Sprintf("NodeClaims launched from it: %s.", strings.Join(held, ", ")))
			}
		}
		if len(parts) == 0 {
			return "Nothing references it any more."
		}
		return strings.Join(parts, " ")
	}
}
