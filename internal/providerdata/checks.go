package providerdata

import (
	"sync"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/solver"
)

// Checks are the provider-wide settings of the plan-time provisioning checks.
type Checks struct {
	// Disabled turns the solver's checks off (CRD validation still runs).
	Disabled bool
	// Strict raises every warning to an error, for CI gates.
	Strict bool
	// CatalogPath is an override file applied to the embedded SKU catalog.
	CatalogPath string
	// Unknown names the provider settings that shape plan-time results (region, checks) and
	// are known only after apply: results computed from them are unknown until then, since
	// the plan Terraform makes during apply sees their values.
	Unknown []string
	// Target is the Karpenter the cluster runs, for the checks of fields it ignores.
	Target solver.Target
}

// plan-time state shared between resources of one provider instance during a plan.
type planState struct {
	solverOnce sync.Once
	solver     *solver.Solver
	solverErr  error

	mu          sync.Mutex
	nodeClasses map[string]recordedNodeClass
	// grants are the Network Contributor scopes of the NAP resources planned so far;
	// grantsUnknown is set when one of them is not known until apply.
	grants        []string
	grantsPlanned bool
	grantsUnknown bool
}

// Solver returns the solver over the (possibly overridden) catalog, loaded on first use.
func (d *Data) Solver() (*solver.Solver, error) {
	d.plan.solverOnce.Do(func() {
		cat, err := catalog.Load(d.Checks.CatalogPath)
		if err != nil {
			d.plan.solverErr = err
			return
		}
		d.plan.solver = solver.New(cat)
	})
	return d.plan.solver, d.plan.solverErr
}

type recordedNodeClass struct {
	settings aks.NodeClass
	changing bool
	complete bool
	deleted  bool
}

// RecordNodeClass remembers the planned settings of an AKSNodeClass, so that NodePools planned
// after it in the same run are checked against them. changing says that the node class itself
// is created or updated in this run: only then does Terraform plan it again during apply.
// complete is false when a setting is known only after apply (the settings then leave it out).
//
// What a NodePool's plan may take from here depends on the walk: Terraform plans every resource
// in its plan walk but only the changing ones in its apply walk, and resources that do not
// reference each other in any order. Diagnostics may use it; values a plan computes must come
// from the pool's own state (its refresh copies the record there, see the nodepool package).
func (d *Data) RecordNodeClass(name string, nc aks.NodeClass, changing, complete bool) {
	d.plan.mu.Lock()
	defer d.plan.mu.Unlock()
	if d.plan.nodeClasses == nil {
		d.plan.nodeClasses = map[string]recordedNodeClass{}
	}
	d.plan.nodeClasses[name] = recordedNodeClass{settings: nc, changing: changing, complete: complete}
}

// RecordNodeClassDeleted remembers that an AKSNodeClass is planned for deletion in this run.
func (d *Data) RecordNodeClassDeleted(name string) {
	d.plan.mu.Lock()
	defer d.plan.mu.Unlock()
	if d.plan.nodeClasses == nil {
		d.plan.nodeClasses = map[string]recordedNodeClass{}
	}
	d.plan.nodeClasses[name] = recordedNodeClass{changing: true, complete: true, deleted: true}
}

// NodeClassDeleted says that the AKSNodeClass is planned for deletion in this run.
func (d *Data) NodeClassDeleted(name string) bool {
	d.plan.mu.Lock()
	defer d.plan.mu.Unlock()
	return d.plan.nodeClasses[name].deleted
}

// NodeClass returns the recorded settings of an AKSNodeClass planned so far in this run, whether
// it changes in this run and whether all its settings are known.
func (d *Data) NodeClass(name string) (nc aks.NodeClass, changing, complete, ok bool) {
	d.plan.mu.Lock()
	defer d.plan.mu.Unlock()
	r, ok := d.plan.nodeClasses[name]
	return r.settings, r.changing, r.complete, ok && !r.deleted
}

// RecordGrantScopes remembers the Network Contributor scopes a karpenter_aks_node_auto_provisioning
// resource plans (known false: not known until apply), so that node classes planned after it
// can check that their subnet is covered.
func (d *Data) RecordGrantScopes(scopes []string, known bool) {
	d.plan.mu.Lock()
	defer d.plan.mu.Unlock()
	d.plan.grantsPlanned = true
	d.plan.grantsUnknown = d.plan.grantsUnknown || !known
	d.plan.grants = append(d.plan.grants, scopes...)
}

// GrantScopes returns the scopes recorded in this run; ok is false when no NAP resource was
// planned yet or one of them has scopes not known until apply.
func (d *Data) GrantScopes() (scopes []string, ok bool) {
	d.plan.mu.Lock()
	defer d.plan.mu.Unlock()
	return append([]string(nil), d.plan.grants...), d.plan.grantsPlanned && !d.plan.grantsUnknown
}
