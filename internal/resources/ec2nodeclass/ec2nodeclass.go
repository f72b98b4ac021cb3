// Package ec2nodeclass defines the karpenter_ec2nodeclass resource: a typed
// karpenter.k8s.aws/v1 EC2NodeClass (Karpenter on EKS), validated at plan time against the
// CRD embedded in the pinned github.com/aws/karpenter-provider-aws module and written with
// server-side apply, exactly as karpenter_aksnodeclass is for AKS.
package ec2nodeclass

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
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// Kind configures the generic CRD resource for EC2NodeClasses.
var Kind = &crdresource.Kind{
	Kind:       kinds.EC2NodeClass,
	TypeSuffix: "ec2nodeclass",
	Description: "Manages a Karpenter `EC2NodeClass` (`karpenter.k8s.aws/v1`) for Karpenter on EKS: the AWS-specific node settings " +
		"(AMI selection, subnets, security groups, the node IAM role or instance profile, block devices, kubelet, metadata options, " +
		"tags) that NodePools reference through `node_class_ref`. Attributes mirror the spec in snake_case; the configuration is " +
		"checked at plan time, offline, against the OpenAPI and CEL rules of the EC2NodeClass CRD of " +
		"github.com/aws/karpenter-provider-aws v1.14.1, and written with server-side apply. The CRD itself is installed by " +
		"Karpenter's Helm chart (`karpenter`, or `karpenter-crd`), not by this provider.",
	DeletionBlockers: blockers,
	Plan:             plan,
	Hint:             hint,
	Locate:           locate,
	// NodePools refreshed after this in the same plan see the class gone.
	PlanDelete: func(d *providerdata.Data, name string) {
		d.Plan.NodeClasses().DeletedOf(kinds.EC2NodeClass.GVK.Kind, name)
	},
	CreateTimeout: 5 * time.Minute,
	DeleteTimeout: 30 * time.Minute,
}

// New is the resource constructor for the provider.
func New() resource.Resource { return crdresource.New(Kind)() }

// blockers names what still uses the node class: Karpenter's termination finalizer keeps an
// EC2NodeClass while NodeClaims launched from it exist, and NodePools that reference it cannot
// launch nodes.
func blockers(ctx context.Context, c *kube.Client, obj *unstructured.Unstructured) string {
	var parts []string
	pools, err := c.List(ctx, kinds.NodePool.GVR(), "")
	if err != nil {
		return fmt.Sprintf("Could not list NodePools: %v.", err)
	}
	var users []string
	for _, p := range pools {
		ref, _, _ := unstructured.NestedStringMap(p.Object, "spec", "template", "spec", "nodeClassRef")
		if ref["name"] == obj.GetName() && ref["kind"] == kinds.EC2NodeClass.GVK.Kind {
			users = append(users, p.GetName())
		}
	}
	sort.Strings(users)
	if len(users) > 0 {
		parts = append(parts, fmt.Sprintf("NodePools that reference it: %s.", strings.Join(users, ", ")))
	}
	claims, err := c.List(ctx, kinds.NodeClaim.GVR(), "")
	if err == nil {
		var held []string
		for _, nc := range claims {
			ref, _, _ := unstructured.NestedStringMap(nc.Object, "spec", "nodeClassRef")
			if ref["name"] == obj.GetName() && ref["kind"] == kinds.EC2NodeClass.GVK.Kind {
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
