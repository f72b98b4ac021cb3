package karpenter

import (
	"testing"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// BenchmarkIndexColumns builds a region's compatibility index and the columns of every
// offering key, the per-process work of a list's first round.
func BenchmarkIndexColumns(b *testing.B) {
	its := westeurope()
	for b.Loop() {
		ix := newCompatIndex([][]*cloudprovider.InstanceType{its})
		for _, k := range ix.offKeys {
			ix.absentBits(k)
		}
	}
}
