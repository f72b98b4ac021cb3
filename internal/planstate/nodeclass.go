package planstate

import "github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"

// NodeClassSettings are the settings of a node class that decide which sizes a pool can
// launch: the decoded node class of the cloud its kind belongs to (aks.NodeClass for an
// AKSNodeClass).
type NodeClassSettings = cloud.NodeClass

// NodeClassState says what a walk planned of a node class.
type NodeClassState int

const (
	// NodeClassNotPlanned: not planned before the reader in this walk. It may exist in the
	// cluster, or be in the configuration and planned later.
	NodeClassNotPlanned NodeClassState = iota
	// NodeClassPlanned: planned before the reader, every setting known.
	NodeClassPlanned
	// NodeClassPending: planned before the reader, some settings known only after apply
	// (Settings leaves them out).
	NodeClassPending
	// NodeClassDeleted: planned for deletion in this run.
	NodeClassDeleted
)

// PlannedNodeClass is what a walk planned of one node class.
type PlannedNodeClass struct {
	Name     string
	State    NodeClassState
	Settings NodeClassSettings
	// Changing says that it is created, updated or deleted in this run.
	Changing bool
}

// Exists says that the node class is planned to exist after this run.
func (c PlannedNodeClass) Exists() bool {
	return c.State == NodeClassPlanned || c.State == NodeClassPending
}

// of says that the planned node class is the one ref names: a class of ref's cloud (a
// deletion names no cloud, and is taken as any).
func (c PlannedNodeClass) of(ref Ref) bool {
	return ref.Cloud != nil && (c.Settings == nil || c.Settings.Cloud() == ref.Cloud.Name())
}
