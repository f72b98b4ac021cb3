package benchcmp

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"text/tabwriter"
	"time"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// predictRow is one scenario of BenchmarkPredictVsUpstream.
type predictRow struct {
	profile              string
	pods                 int
	ours, upstream       decision
	oursNs, upstreamNs   time.Duration
	oursCPU, upCPU       time.Duration
	oursBytes, upBytes   uint64
	oursAllocs, upAllocs uint64
	oursHeap             uint64
	sc                   scenario
}

var (
	predictMu   sync.Mutex
	predictRows = map[string]*predictRow{}
)

func notePredict(profile string, pods int, f func(*predictRow)) {
	predictMu.Lock()
	defer predictMu.Unlock()
	key := fmt.Sprintf("%s/%05d", profile, pods)
	r := predictRows[key]
	if r == nil {
		r = &predictRow{profile: profile, pods: pods}
		predictRows[key] = r
	}
	f(r)
}

// BenchmarkPredictVsUpstream times the emulation (internal/simulation/karpenter, what Analyzer.Predict
// runs) and Karpenter's scheduler with the provisioner's truncation and the Azure launch on
// the benchmark's profiles, and checks that both launch the same NodeClaims. Each side reports
// its bytes and allocations per run; the emulation also its peak live heap growth.
//
//	go test -run '^$' -bench PredictVsUpstream -benchmem -timeout 60m ./internal/simulation/benchcmp/
func BenchmarkPredictVsUpstream(b *testing.B) {
	its := regionTypes(region)
	for _, prof := range profiles {
		for _, n := range sizes {
			sc := scenario{name: prof.name, pools: prof.pools(), its: map[string][]*cloudprovider.InstanceType{}, pods: simmodel.Pods(workloads(seed, n))}
			for _, np := range sc.pools {
				sc.its[np.Name] = its
			}
			b.Run(fmt.Sprintf("%s/pods=%d/predict", prof.name, n), func(b *testing.B) {
				d, bytes, allocs, heap, cpu := measureDecision(b, sc, emulatedDecision)
				notePredict(prof.name, n, func(r *predictRow) {
					r.sc = sc
					r.ours, r.oursNs, r.oursBytes, r.oursAllocs, r.oursHeap, r.oursCPU = d, b.Elapsed()/time.Duration(b.N), bytes, allocs, heap, cpu
				})
			})
			b.Run(fmt.Sprintf("%s/pods=%d/upstream", prof.name, n), func(b *testing.B) {
				d, bytes, allocs, _, cpu := measureDecision(b, sc, upstreamDecision)
				notePredict(prof.name, n, func(r *predictRow) {
					r.upstream, r.upstreamNs, r.upBytes, r.upAllocs, r.upCPU = d, b.Elapsed()/time.Duration(b.N), bytes, allocs, cpu
				})
			})
		}
	}
}

// measureDecision runs decide in the benchmark loop and returns its last decision, the bytes
// and allocations per run, the heap in use after the loop, and the process CPU time per run
// (user and system, garbage collection included): on a shared machine the wall time measures
// the load as much as the work.
func measureDecision(b *testing.B, sc scenario, decide func(scenario) (decision, error)) (d decision, bytes, allocs, heap uint64, cpu time.Duration) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	cpuBefore := processCPU()
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if d, err = decide(sc); err != nil {
			b.Fatal(err)
		}
	}
	cpu = (processCPU() - cpuBefore) / time.Duration(b.N)
	runtime.ReadMemStats(&after)
	b.ReportMetric(d.cost, "$/h")
	b.ReportMetric(float64(len(d.claims)), "nodeclaims")
	b.ReportMetric(float64(cpu.Microseconds())/1000, "cpu-ms/op")
	n := uint64(b.N)
	return d, (after.TotalAlloc - before.TotalAlloc) / n, (after.Mallocs - before.Mallocs) / n, after.HeapInuse, cpu
}

// processCPU is the process's user and system CPU time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// printPredictTable writes BenchmarkPredictVsUpstream's side-by-side table.
func printPredictTable() {
	predictMu.Lock()
	defer predictMu.Unlock()
	var keys []string
	for k, r := range predictRows {
		if r.oursNs > 0 && r.upstreamNs > 0 {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "profile\tpods\tidentical\tnodeclaims\t$/h predicted\t$/h Karpenter\tpredict ms\tKarpenter ms\tspeed-up\tpredict CPU ms\tKarpenter CPU ms\tCPU speed-up\tpredict MB/op\tKarpenter MB/op\tpredict allocs/op\tKarpenter allocs/op\t")
	for _, k := range keys {
		r := predictRows[k]
		same := "yes"
		if d := compareDecisions(r.ours, r.upstream); d != "" {
			// Karpenter breaks ties at random: its run is one of the emulation's outcomes when
			// the guided search reaches it (as the comparator decides; not timed).
			same = "no: " + d
			if found, _, _, err := reachDecision(r.sc, r.upstream, 2000, time.Minute); err == nil && found != nil {
				same = "yes (another tie-break)"
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%.4f\t%.4f\t%.1f\t%.1f\t%.0fx\t%.1f\t%.1f\t%.0fx\t%.1f\t%.1f\t%d\t%d\t\n", r.profile, r.pods, same, len(r.ours.claims),
			r.ours.cost, r.upstream.cost, float64(r.oursNs)/1e6, float64(r.upstreamNs)/1e6, float64(r.upstreamNs)/float64(r.oursNs),
			float64(r.oursCPU)/1e6, float64(r.upCPU)/1e6, float64(r.upCPU)/float64(max(r.oursCPU, 1)),
			float64(r.oursBytes)/(1<<20), float64(r.upBytes)/(1<<20), r.oursAllocs, r.upAllocs)
	}
	tw.Flush()
	fmt.Println(strings.Repeat("-", 20))
}
