package ec2nodeclass

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"

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
	DeletionBlockers: crdresource.NodeClassBlockers(kinds.EC2NodeClass),
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
