package nap

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// warnDefaultPoolsRemoved reports an update from default_node_pools Auto to None on a cluster
// in Auto mode (KRP410): AKS then deletes its default NodePools and drains their nodes. Only
// the prior state shows that the pools exist, so the check runs on updates only; it is shown
// through the provider's checks (strict mode makes it an error, checks.suppress hides it).
func warnDefaultPoolsRemoved(plan, st *model, checks providerdata.Checks, diags *diag.Diagnostics) {
	if plan.Mode.IsUnknown() || plan.DefaultNodePools.IsUnknown() {
		return
	}
	mode := plan.Mode.ValueString()
	if plan.Mode.IsNull() {
		mode = azure.ModeAuto
	}
	if mode != azure.ModeAuto || st.EffectiveMode.ValueString() != azure.ModeAuto ||
		st.DefaultNodePools.ValueString() != azure.DefaultNodePoolsAuto || plan.DefaultNodePools.ValueString() != azure.DefaultNodePoolsNone {
		return
	}
	f := findings.New(findings.DefaultNodePoolsRemoved, "",
		fmt.Sprintf("%s runs node auto provisioning with AKS's default NodePools (default, system-surge). "+
			"Setting default_node_pools = \"None\" makes AKS delete them, which drains and deletes every node they launched; their pods are "+
			"rescheduled only where another NodePool can take them.", st.ClusterID.ValueString()),
		"apply the karpenter_nodepool resources that replace the default pools first, and switch to \"None\" once they have capacity")
	crdresource.AddFinding(diags, checks, path.Root("default_node_pools"), true, f, crdresource.FindingDetail{})
}
