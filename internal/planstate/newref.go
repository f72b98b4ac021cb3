package planstate

// ForNewReference is the node class a pool's analysis may use when the pool's observation does
// not describe the class it references now: a create, or a node_class_ref that changes. Such a
// plan has no private state in Terraform's apply walk, so the class must come from what both
// walks see alike. ViewUnknown means that the analysis is known after apply.
//
// A class this walk plans to create or change, with every setting known, gives its planned
// settings. Terraform plans it again in the apply walk, and a pool that references it through
// an attribute comes after it in both walks. A class the walk planned without a change, or did
// not plan, is read from the cluster (live). Terraform does not plan an unchanged resource
// again in the apply walk, and a class outside the configuration is never planned, so both
// walks read the same object.
//
// It stays unknown for a class whose settings are known only after apply, a class planned for
// deletion, a class the cluster could not be read for, and a class that does not exist: this
// run may create it (a resource planned after the pool, or AKS for NAP's default class).
func (s NodePoolStage) ForNewReference(ref Ref, live func() (settings NodeClassSettings, found bool, err error)) NodeClassView {
	if !ref.IsNodeClass() {
		// The same in both walks: Karpenter launches nothing from it.
		return NodeClassView{State: ViewObserved, Assumed: true, Label: assumedLabel(ref, "")}
	}
	planned := s.NodeClassOf(ref.Kind, ref.Name)
	if !planned.of(ref) {
		planned = PlannedNodeClass{Name: ref.Name}
	}
	switch {
	case planned.State == NodeClassPending, planned.State == NodeClassDeleted:
		return NodeClassView{State: ViewUnknown}
	case planned.State == NodeClassPlanned && planned.Changing && planned.Settings == nil:
		// Planned by a kind no cloud decodes: nothing to analyse with.
		return NodeClassView{State: ViewUnknown}
	case planned.State == NodeClassPlanned && planned.Changing:
		return NodeClassView{State: ViewPlanned, Settings: planned.Settings, Label: ref.Kind + " " + ref.Name}
	}
	settings, found, err := live()
	if err != nil || !found {
		return NodeClassView{State: ViewUnknown}
	}
	return NodeClassView{State: ViewObserved, Settings: settings, Label: ref.Kind + " " + ref.Name}
}
