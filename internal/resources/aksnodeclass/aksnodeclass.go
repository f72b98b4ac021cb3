package aksnodeclass

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/planstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// Kind configures the generic CRD resource for AKSNodeClasses.
var Kind = &crdresource.Kind{
	Kind:       kinds.AKSNodeClass,
	TypeSuffix: "aksnodeclass",
	Description: "Manages a Karpenter `AKSNodeClass` (`karpenter.azure.com/v1beta1`): the Azure-specific node settings " +
		"(image family, OS disk, subnet, kubelet, security, tags) that NodePools reference through `node_class_ref`. " +
		"Attributes mirror the spec in snake_case; the configuration is checked at plan time, offline, against the " +
		"CRD's OpenAPI and CEL rules, and written with server-side apply.",
	DeletionBlockers: crdresource.NodeClassBlockers(kinds.AKSNodeClass),
	Plan:             plan,
	// NodePools refreshed after this in the same plan see the class gone (see nodepool.observe).
	PlanDelete:    func(d *providerdata.Data, name string) { d.Plan.NodeClasses().Deleted(name) },
	CreateTimeout: 5 * time.Minute,
	DeleteTimeout: 30 * time.Minute,
}

// New is the resource constructor for the provider.
func New() resource.Resource { return crdresource.New(Kind)() }

// plan remembers the planned settings, so that NodePools that reference this node class in
// the same configuration are checked against them rather than against defaults, and checks
// the subnet against the Network Contributor grants planned in the same run.
func plan(ctx context.Context, pc *crdresource.PlanContext) {
	if pc.Data == nil {
		return
	}
	stage := pc.Data.Plan.NodeClasses()
	known, unknown := crdtree.StripUnknown(pc.Object)
	nc, err := analysis.NodeClassFromObject(known)
	name, _, _ := unstructured.NestedString(known, "metadata", "name")
	if err == nil && name != "" {
		stage.Planned(name, nc, pc.Changing, len(unknown) == 0)
	}
	if !pc.Data.Checks.Disabled {
		checkSubnetGranted(pc, known, stage.Grants())
		checkSubnetChange(pc, known)
	}
	if len(unknown) == 0 {
		pc.NodeClassImpact(ctx, kinds.AKSNodeClass, known)
	}
}

// checkSubnetGranted reports a vnetSubnetID that the grants of the NAP resources planned
// before this node class cover neither directly nor through its VNet, resource group or
// subscription (KRP116). Without a NAP resource in the run, or with grants not known until
// apply, there is nothing to compare with.
func checkSubnetGranted(pc *crdresource.PlanContext, obj map[string]any, grants planstate.Grants) {
	subnet, _, _ := unstructured.NestedString(obj, "spec", "vnetSubnetID")
	if subnet == "" || !grants.Known() {
		return
	}
	scopes := grants.Scopes
	for _, s := range scopes {
		if azure.ScopeCovers(s, subnet) {
			return
		}
	}
	pc.ReportFinding(findings.New(findings.SubnetNotGranted, "spec.vnetSubnetID",
		fmt.Sprintf("NAP creates this node class's node network interfaces in %s as the cluster identity, which needs Network Contributor there; "+
			"the karpenter_aks_node_auto_provisioning network_contributor_scopes planned in this configuration are %s.", subnet, scopeList(scopes)),
		"add the subnet or its VNet to network_contributor_scopes, unless the role is granted elsewhere"), crdresource.FindingDetail{})
}

func scopeList(scopes []string) string {
	if len(scopes) == 0 {
		return "empty"
	}
	return strings.Join(scopes, ", ")
}
