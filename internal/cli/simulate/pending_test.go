package simulate

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// A pool at its limits leaves many workloads pending for one reason: the text and markdown
// reports say the reason once, with the workloads and their counts, and "1 pod" for one.
func TestPendingPodsAreGroupedByReason(t *testing.T) {
	sim := &simmodel.Simulation{Unschedulable: []simmodel.Unschedulable{
		{Workload: "Deployment/a", Count: 1, Reason: "exceeds limits"},
		{Workload: "Deployment/b", Count: 38, Reason: "exceeds limits"},
		{Workload: "Deployment/c", Count: 2, Reason: "no instance type fits\ndid not tolerate taint"},
	}}
	got := pendingGroups(sim.Unschedulable)
	if len(got) != 2 || got[0].Pods != 39 || got[1].Pods != 2 {
		t.Fatalf("groups %+v", got)
	}
	if s, l := got[0].Subject(), got[0].List(); s != "39 pods of 2 workloads" || l != "Deployment/a 1, Deployment/b 38" {
		t.Errorf("subject %q, list %q", s, l)
	}
	if s, l := got[1].Subject(), got[1].List(); s != "2 pods of Deployment/c" || l != "" || got[1].Reason != "no instance type fits; did not tolerate taint" {
		t.Errorf("subject %q, list %q", s, l)
	}
	one := pendingGroup{Reason: "r", Pods: 1, Workloads: sim.Unschedulable[:1]}
	if s := one.Subject(); s != "1 pod of Deployment/a" {
		t.Errorf("subject %q", s)
	}
}

// A node placed in no zone (AKS's zone label "0") is shown as regional in the tables.
func TestRegionalNodesAreLabelled(t *testing.T) {
	sim := &simmodel.Simulation{Nodes: []simmodel.SimNode{
		{Pool: "p", SKU: "Standard_D2s_v5", Zone: "0", CapacityType: "on-demand"},
		{Pool: "p", SKU: "Standard_D2s_v5", Zone: "eastus-1", CapacityType: "on-demand"},
	}}
	rows := simreport.Tables(sim, []string{"p"})[0].Rows
	if len(rows) != 2 || rows[0].Zone != "0 (regional)" || rows[1].Zone != "eastus-1" {
		t.Errorf("rows %+v", rows)
	}
}
