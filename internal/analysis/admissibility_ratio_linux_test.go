package analysis

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

// BenchmarkAdmissibilityRatio is BenchmarkAdmissibility's two scopes in one loop: each
// iteration analyses the pool in westeurope, then over the full catalog, on one locked OS
// thread. It reports each scope's CPU time per Analyze (the thread's, which other processes
// on a shared machine do not inflate; GC work on other threads is left out) and their ratio.
func BenchmarkAdmissibilityRatio(b *testing.B) {
	s := New(catalog.Default())
	pool := benchPool()
	scopes := []Options{{Region: "westeurope"}, {Region: AnyRegion}}
	for _, o := range scopes {
		s.Analyze(pool, o) // derive and cache the instance types
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var spent [2]time.Duration
	b.ResetTimer()
	for b.Loop() {
		for i, o := range scopes {
			start := threadCPU(b)
			s.Analyze(pool, o)
			spent[i] += threadCPU(b) - start
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Microseconds())/1000/n, "westeurope-cpu-ms")
	b.ReportMetric(float64(spent[1].Microseconds())/1000/n, "full-catalog-cpu-ms")
	b.ReportMetric(float64(spent[0])/float64(spent[1]), "westeurope/full")
}

// threadCPU is the calling OS thread's user and system CPU time.
func threadCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkFiftyPoolPlan is the analysis a plan of fifty pools in westeurope makes in a fresh
// provider process: a new solver (the catalog is decoded once per binary, before the timer),
// one cold Analyze that derives and indexes the region's instance types, then 49 warm ones.
// It reports the thread CPU time of each part.
func BenchmarkFiftyPoolPlan(b *testing.B) {
	cat := catalog.Default()
	pool := benchPool()
	New(cat).Analyze(pool, Options{Region: "northeurope"}) // decode the catalog
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cold, warm time.Duration
	b.ResetTimer()
	for b.Loop() {
		s := New(cat)
		start := threadCPU(b)
		s.Analyze(pool, Options{Region: "westeurope"})
		mid := threadCPU(b)
		for range 49 {
			s.Analyze(pool, Options{Region: "westeurope"})
		}
		cold, warm = cold+mid-start, warm+threadCPU(b)-mid
	}
	n := float64(b.N)
	b.ReportMetric(float64(cold.Microseconds())/1000/n, "cold-cpu-ms")
	b.ReportMetric(float64(warm.Microseconds())/1000/n, "49-warm-cpu-ms")
}
