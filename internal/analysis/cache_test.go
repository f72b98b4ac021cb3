package analysis

import (
	"sync"
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// countingCloud counts derivations per region and holds each one until `overlap` of them are
// running at once (or 10 s have passed), which only happens when derivations of different
// keys do not serialise.
type countingCloud struct {
	cloud.Cloud
	overlap int

	mu      sync.Mutex
	calls   map[string]int
	running int
	all     chan struct{}
}

func (c *countingCloud) InstanceTypes(region string, nc cloud.NodeClass) []*cloud.InstanceType {
	c.mu.Lock()
	c.calls[region]++
	c.running++
	if c.running == c.overlap {
		close(c.all)
	}
	c.mu.Unlock()
	select {
	case <-c.all:
	case <-time.After(10 * time.Second):
	}
	c.mu.Lock()
	c.running--
	c.mu.Unlock()
	return c.Cloud.InstanceTypes(region, nc)
}

// Two regions derive concurrently (neither waits for the other's derivation) and each runs
// once however many callers ask for it at the same time; equal node classes share an entry.
func TestRegionsDeriveConcurrentlyAndOnce(t *testing.T) {
	cc := &countingCloud{Cloud: aks.NewCloud(catalog.Default()), overlap: 2, calls: map[string]int{}, all: make(chan struct{})}
	s := NewWithClouds(cc)
	regions := []string{"westeurope", "eastus"}
	results := make([][]*regionTypes, len(regions))
	start := time.Now()
	var wg sync.WaitGroup
	for i, region := range regions {
		results[i] = make([]*regionTypes, 8)
		for j := range results[i] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				nc := cloud.NodeClass(aks.NodeClass{})
				if j%2 == 1 {
					nc = nil // the default cloud's default node class: the same entry
				}
				results[i][j] = s.types(region, nc)
			}()
		}
	}
	wg.Wait()
	select {
	case <-cc.all:
	default:
		t.Fatalf("the two regions' derivations never ran at the same time (serialised), after %s", time.Since(start))
	}
	for i, region := range regions {
		if n := cc.calls[region]; n != 1 {
			t.Errorf("%s derived %d times, want once", region, n)
		}
		for _, rt := range results[i] {
			if rt != results[i][0] || len(rt.types) == 0 {
				t.Errorf("%s: callers got different or empty results", region)
			}
		}
	}
}
