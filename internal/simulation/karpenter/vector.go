package karpenter

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// vec is a resource list of cpu, memory and pods in milli-units. Karpenter compares
// resource.Quantity maps for every option of every NodeClaim it tries, and that is most of its
// time. The emulation compares three integers when a list holds nothing else and every
// quantity is a whole number of milli-units. Otherwise it falls back to the maps.
type vec [3]int64

var vecNames = [3]corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourcePods}

// toVec converts a list; ok is false when it names another resource or a quantity is not
// exact in milli-units.
func toVec(l corev1.ResourceList) (v vec, ok bool) {
	n := 0
	for i, name := range vecNames {
		q, has := l[name]
		if !has {
			continue
		}
		n++
		m := q.MilliValue()
		if resource.NewMilliQuantity(m, resource.DecimalSI).Cmp(q) != 0 {
			return v, false
		}
		v[i] = m
	}
	return v, n == len(l)
}

// allocVec is an allocatable list as a vector. Missing resources are zero. Other resources do
// not matter, since requests that name them take the slow path. Negative quantities make
// nothing fit, as in resources.Fits.
type allocVec struct {
	v        vec
	negative bool
	exact    bool
}

func toAllocVec(l corev1.ResourceList) allocVec {
	a := allocVec{exact: true}
	for name, q := range l {
		if q.Sign() < 0 {
			a.negative = true
		}
		for i, n := range vecNames {
			if n == name {
				m := q.MilliValue()
				if resource.NewMilliQuantity(m, resource.DecimalSI).Cmp(q) != 0 {
					a.exact = false
				}
				a.v[i] = m
			}
		}
	}
	return a
}

func (a allocVec) holds(r vec) bool {
	return !a.negative && r[0] <= a.v[0] && r[1] <= a.v[1] && r[2] <= a.v[2]
}
