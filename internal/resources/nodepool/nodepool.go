package nodepool

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// Kind configures the generic CRD resource for NodePools.
var Kind = &crdresource.Kind{
	Kind:       kinds.NodePool,
	TypeSuffix: "nodepool",
	Description: "Manages a Karpenter `NodePool` (`karpenter.sh/v1`) on an AKS cluster with Node Auto Provisioning " +
		"or self-hosted Karpenter. Attributes mirror the NodePool spec in snake_case, with `spec` and the template's " +
		"`metadata`/`spec` wrappers flattened away. The configuration is checked at plan time, offline, against the " +
		"same OpenAPI and CEL rules the API server enforces, and written with server-side apply. Plan-time provisioning checks " +
		"use the settings of the AKSNodeClass this pool references: as planned in the same configuration when it is referenced by " +
		"attribute (`name = karpenter_aksnodeclass.x.name`), which makes Terraform plan it first, or else as read from the cluster " +
		"(see the `analysis` attribute).",
	ExtraAttributes:  checksAttributes(),
	Plan:             planChecks,
	Hint:             hint,
	ValidatorFor:     validatorFor,
	Observe:          observe,
	DeletionBlockers: blockers,
	CreateTimeout:    5 * time.Minute,
	// Deleting a NodePool drains and deletes all its nodes first.
	DeleteTimeout: 30 * time.Minute,
}

// New is the resource constructor for the provider.
func New() resource.Resource { return crdresource.New(Kind)() }

// blockers names the NodeClaims that still belong to the pool: Karpenter deletes a NodePool
// only after draining and deleting them.
func blockers(ctx context.Context, c *kube.Client, obj *unstructured.Unstructured) string {
	claims, err := c.List(ctx, kinds.NodeClaim.GVR(), "karpenter.sh/nodepool="+obj.GetName())
	if err != nil {
		return fmt.Sprintf("Could not list its NodeClaims: %v.", err)
	}
	if len(claims) == 0 {
		return "No NodeClaims belong to it any more."
	}
	names := make([]string, 0, len(claims))
	for _, nc := range claims {
		names = append(names, nc.GetName())
	}
	sort.Strings(names)
	return fmt.Sprintf("%d NodeClaim(s) still belong to it and are being drained: %s.", len(names), strings.Join(names, ", "))
}
