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
