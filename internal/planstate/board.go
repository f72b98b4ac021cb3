// Package planstate is what the provider's resources learn from each other while Terraform
// plans, typed and ordered by construction.
//
// Within one walk the resources form three stages, each reading only the stages before it:
//
//	karpenter_aks_node_auto_provisioning  publishes the Network Contributor scopes it grants
//	karpenter_aksnodeclass                reads the grants, publishes its planned settings
//	karpenter_ec2nodeclass                publishes its planned settings (keyed by kind and name)
//	karpenter_nodepool                    reads the node class its template references
//
// A stage's handle (Board.NAP, Board.NodeClasses, Board.NodePools) has only the reads and the
// writes of its stage. So a resource cannot read what it publishes itself, or what a later
// stage does. Terraform alone decides whether the stage before is planned first (it is when
// the later resource references the earlier one), so every read says what it found: not
// planned (yet), planned, or planned with settings known only after apply.
//
// What a walk publishes is mostly for diagnostics: Terraform's apply walk plans again only the
// resources that change, in another order, so a value a plan computes must not depend on it.
// Such values come from what the resource observed at its last refresh or write (Observed),
// which both walks see alike; ForAnalysis takes no Board, so it cannot read the walk. A new
// reference has no observation in the apply walk: ForNewReference reads the walk only for a
// class it changes, which Terraform plans again, before a pool that references it.
package planstate

import "sync"

// Board is the plan-time state one provider instance shares between its resources.
type Board struct {
	mu      sync.Mutex
	grants  Grants
	classes map[classKey]PlannedNodeClass
}

// classKey identifies a node class: an AKSNodeClass and an EC2NodeClass may share a name.
type classKey struct{ kind, name string }

// aksNodeClass is the kind the name-only methods (Planned, Deleted, NodeClass) are about.
const aksNodeClass = "AKSNodeClass"

// New returns an empty board: nothing planned yet.
func New() *Board { return &Board{classes: map[classKey]PlannedNodeClass{}} }

// NAP is the handle of the first stage, karpenter_aks_node_auto_provisioning.
func (b *Board) NAP() NAPStage { return NAPStage{b} }

// NodeClasses is the handle of the second stage, karpenter_aksnodeclass and
// karpenter_ec2nodeclass.
func (b *Board) NodeClasses() NodeClassStage { return NodeClassStage{b} }

// NodePools is the handle of the last stage, karpenter_nodepool.
func (b *Board) NodePools() NodePoolStage { return NodePoolStage{b} }

// NAPStage publishes what a NAP resource plans; it reads nothing.
type NAPStage struct{ b *Board }

// PlanGrants records the Network Contributor scopes a NAP resource plans; known is false when
// they are known only after apply.
func (s NAPStage) PlanGrants(scopes []string, known bool) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	g := &s.b.grants
	switch {
	case !known:
		g.State = GrantsUnknown
	case g.State == GrantsNotPlanned:
		g.State = GrantsPlanned
	}
	g.Scopes = append(g.Scopes, scopes...)
}

// NodeClassStage reads the grants and publishes what an AKSNodeClass plans.
type NodeClassStage struct{ b *Board }

// Grants are the scopes of the NAP resources planned so far in this walk.
func (s NodeClassStage) Grants() Grants {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	g := s.b.grants
	g.Scopes = append([]string(nil), g.Scopes...)
	return g
}

// Planned records the planned settings of an AKSNodeClass. changing says that the node class
// is created or updated in this run (only then does Terraform plan it again during apply);
// complete is false when a setting is known only after apply (settings then leave it out).
func (s NodeClassStage) Planned(name string, settings NodeClassSettings, changing, complete bool) {
	s.PlannedOf(aksNodeClass, name, settings, changing, complete)
}

// PlannedOf is Planned for a node class of the given kind (EC2NodeClass). settings may be nil
// when no registered cloud decodes the kind: the class then only counts as existing.
func (s NodeClassStage) PlannedOf(kind, name string, settings NodeClassSettings, changing, complete bool) {
	state := NodeClassPlanned
	if !complete {
		state = NodeClassPending
	}
	s.put(kind, PlannedNodeClass{Name: name, State: state, Settings: settings, Changing: changing})
}

// Deleted records that an AKSNodeClass is planned for deletion in this run.
func (s NodeClassStage) Deleted(name string) { s.DeletedOf(aksNodeClass, name) }

// DeletedOf is Deleted for a node class of the given kind.
func (s NodeClassStage) DeletedOf(kind, name string) {
	s.put(kind, PlannedNodeClass{Name: name, State: NodeClassDeleted, Changing: true})
}

func (s NodeClassStage) put(kind string, c PlannedNodeClass) {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	s.b.classes[classKey{kind, c.Name}] = c
}

// NodePoolStage reads the node classes; it publishes nothing.
type NodePoolStage struct{ b *Board }

// NodeClass is what this walk planned of the AKSNodeClass name so far (State NodeClassNotPlanned
// when nothing).
func (s NodePoolStage) NodeClass(name string) PlannedNodeClass {
	return s.NodeClassOf(aksNodeClass, name)
}

// NodeClassOf is NodeClass for a node class of the given kind (the kind of the pool's
// node_class_ref): a class of another kind under the same name is another object.
func (s NodePoolStage) NodeClassOf(kind, name string) PlannedNodeClass {
	s.b.mu.Lock()
	defer s.b.mu.Unlock()
	if c, ok := s.b.classes[classKey{kind, name}]; ok {
		return c
	}
	return PlannedNodeClass{Name: name}
}
