package aksnodeclass

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// checkSubnetChange reports an update that moves the node class to another subnet (KRP409):
// every node launched from it drifts and is replaced, and earlier NAP releases launched none
// until the change was reverted. Only the prior state shows it, so it is a plan-time check.
func checkSubnetChange(pc *crdresource.PlanContext, obj map[string]any) {
	if pc.Prior == nil {
		return
	}
	before, _, _ := unstructured.NestedString(pc.Prior, "spec", "vnetSubnetID")
	after, _, _ := unstructured.NestedString(obj, "spec", "vnetSubnetID")
	if spec, _ := pc.Object["spec"].(map[string]any); spec != nil {
		if v, set := spec["vnetSubnetID"]; set {
			if _, known := v.(string); !known {
				return // known only after apply: nothing to compare yet
			}
		}
	}
	if strings.EqualFold(before, after) {
		return // Azure resource IDs compare without case
	}
	name := func(s string) string {
		if s == "" {
			return "the cluster's default subnet"
		}
		return s
	}
	pc.ReportFinding(findings.New(findings.SubnetChanged, "spec.vnetSubnetID",
		fmt.Sprintf("vnet_subnet_id changes from %s to %s. The Azure provider hashes vnetSubnetID into the AKSNodeClass, so every node "+
			"launched from this node class drifts and Karpenter replaces them all in the new subnet, at the pace of the NodePools' disruption "+
			"budgets; NAP releases before that did not support a change between two subnets and launched no node until it was reverted.",
			name(before), name(after)),
		"grant the cluster identity Network Contributor on the new subnet and check that it has an address for every replacement node, "+
			"or create a new node class (and NodePool) in the new subnet and move the workloads"), crdresource.FindingDetail{})
}
