package ec2nodeclass

import (
	"context"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/planstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// plan publishes the planned node class, so that a NodePool planned after it in the same run
// (one that references karpenter_ec2nodeclass.x.name) finds it, and reports the EC2NodeClass
// findings (checks.go).
func plan(ctx context.Context, pc *crdresource.PlanContext) {
	if pc.Data == nil {
		return
	}
	known, unknown := crdtree.StripUnknown(pc.Object)
	publish(pc, known, len(unknown) == 0)
	if !pc.Data.Checks.Disabled {
		report(pc, known)
	}
	if len(unknown) == 0 {
		pc.NodeClassImpact(ctx, kinds.EC2NodeClass, known)
	}
}

// publish records the class on the plan-time board, with the settings of the cloud that owns
// its group when one is registered (nil otherwise: the class then only counts as existing).
// A class whose settings do not decode is not published, as for AKSNodeClass.
func publish(pc *crdresource.PlanContext, known map[string]any, complete bool) {
	name, _, _ := unstructured.NestedString(known, "metadata", "name")
	if name == "" {
		return
	}
	var settings planstate.NodeClassSettings
	if s, err := pc.Data.Analyzer(); err == nil {
		if c, ok := s.Clouds().ForGroup(kinds.EC2NodeClass.GVK.Group); ok {
			nc, err := c.DecodeNodeClass(known)
			if err != nil {
				return
			}
			settings = nc
		}
	}
	pc.Data.Plan.NodeClasses().PlannedOf(kinds.EC2NodeClass.GVK.Kind, name, settings, pc.Changing, complete)
}
