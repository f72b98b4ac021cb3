package karpenter

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// domainsMemo is the domain index of the last Solve and what it was built from: the pools in
// round order, what of each the index reads, and each pool's instance-type list.
type domainsMemo struct {
	pools []*karpv1.NodePool
	specs []poolDomainSpec
	lists []valueUnionKey
	index *domainIndex
}

// poolDomainSpec is what a domain index reads of a pool, copied: a pool edited in place
// between two Solves makes a new index.
type poolDomainSpec struct {
	requirements []karpv1.NodeSelectorRequirementWithMinValues
	labels       map[string]string
	taints       []corev1.Taint
}

func domainSpecOf(np *karpv1.NodePool) poolDomainSpec {
	t := np.Spec.Template.DeepCopy()
	return poolDomainSpec{requirements: t.Spec.Requirements, labels: t.Labels, taints: t.Spec.Taints}
}

func listKey(its []*cloudprovider.InstanceType) valueUnionKey {
	if len(its) == 0 {
		return valueUnionKey{}
	}
	return valueUnionKey{&its[0], len(its)}
}

// domainIndex is newDomainIndex(pools, its), the last one when the pools and their lists are
// the same. Lists are never modified (see valueUnion); pools are compared by what the index
// reads.
func (m *Memo) domainIndex(pools []*karpv1.NodePool, its map[string][]*cloudprovider.InstanceType) *domainIndex {
	if m == nil {
		return newDomainIndex(pools, its)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if d := m.domains; d != nil && d.matches(pools, its) {
		return d.index
	}
	// The index keeps its own map of the lists: the caller's may change.
	own := make(map[string][]*cloudprovider.InstanceType, len(pools))
	d := &domainsMemo{pools: append([]*karpv1.NodePool(nil), pools...)}
	for _, np := range pools {
		own[np.Name] = its[np.Name]
		d.specs = append(d.specs, domainSpecOf(np))
		d.lists = append(d.lists, listKey(its[np.Name]))
	}
	d.index = newDomainIndex(d.pools, own)
	m.domains = d
	return d.index
}

func (d *domainsMemo) matches(pools []*karpv1.NodePool, its map[string][]*cloudprovider.InstanceType) bool {
	if len(pools) != len(d.pools) {
		return false
	}
	for i, np := range pools {
		if np != d.pools[i] || listKey(its[np.Name]) != d.lists[i] {
			return false
		}
		s := d.specs[i]
		t := &np.Spec.Template
		if !reflect.DeepEqual(s.requirements, t.Spec.Requirements) || !reflect.DeepEqual(s.labels, t.Labels) || !reflect.DeepEqual(s.taints, t.Spec.Taints) {
			return false
		}
	}
	return true
}
