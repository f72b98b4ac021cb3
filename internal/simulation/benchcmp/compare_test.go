package benchcmp

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/optimal"
)

// row is one scenario's figures, filled in by the two sides' benchmarks.
type row struct {
	profile                      string
	pods                         int
	ours, upstream, bound        float64
	configBound                  float64
	oursNs, upstreamNs           time.Duration
	oursNodes, upstreamNodes     int
	oursUnsched, upstreamUnsched int
}

var (
	mu   sync.Mutex
	rows = map[string]*row{}
)

func note(profile string, pods int, f func(*row)) {
	mu.Lock()
	defer mu.Unlock()
	key := fmt.Sprintf("%s/%05d", profile, pods)
	r := rows[key]
	if r == nil {
		r = &row{profile: profile, pods: pods}
		rows[key] = r
	}
	f(r)
}

// seed fixes the pod sets: every run schedules the same pods.
const seed = 42

// BenchmarkSolverVsUpstream schedules the same pods on the same NodePools and instance types
// (the embedded catalog's westeurope sizes and list prices) with the solver and with
// Karpenter's scheduler, and reports each side's hourly cost, node count, unschedulable pods
// and, for the solver, its two lower bounds (the default LP bound and the configuration LP
// bound). TestMain prints the side-by-side table.
func BenchmarkSolverVsUpstream(b *testing.B) {
	cat := catalog.Default()
	s := analysis.New(cat)
	res := aks.List(cat, region, aks.NodeClass{}, aks.Cluster{})
	its := make([]*cloudprovider.InstanceType, len(res.InstanceTypes))
	for i, it := range res.InstanceTypes {
		its[i] = it.InstanceType
	}
	for _, prof := range profiles {
		for _, n := range sizes {
			ws := workloads(seed, n)
			pods := simmodel.Pods(ws)
			nps := prof.pools()
			b.Run(fmt.Sprintf("%s/pods=%d/ours", prof.name, n), func(b *testing.B) {
				var sim *simmodel.Simulation
				in := simmodel.SimulationInput{Region: region, Seed: seed}
				for _, np := range nps {
					in.Pools = append(in.Pools, simmodel.SimPool{Pool: analysis.NewPool(np)})
				}
				b.ReportAllocs()
				cpuBefore := processCPU()
				for b.Loop() {
					in.Workloads = simmodel.WorkloadsFromPods(pods)
					var err error
					if sim, err = optimal.Simulate(s, in); err != nil {
						b.Fatal(err)
					}
				}
				// Process CPU time (GC included) per run: steadier than ns/op on a loaded machine.
				b.ReportMetric(float64((processCPU()-cpuBefore).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				unsched := 0
				for _, u := range sim.Unschedulable {
					unsched += u.Count
				}
				// The configuration LP bound is the yardstick of the packing's quality; it is
				// opt-in and slower, so it is computed once, outside the timed loop.
				in.ConfigurationBound = true
				tight, err := optimal.Simulate(s, in)
				if err != nil || tight.HourlyCost != sim.HourlyCost {
					b.Fatalf("the configuration bound changed the simulation: %v", err)
				}
				b.ReportMetric(sim.HourlyCost, "$/h")
				b.ReportMetric(sim.LowerBound, "bound-$/h")
				b.ReportMetric(tight.LowerBound, "config-bound-$/h")
				b.ReportMetric(float64(len(sim.Nodes)), "nodes")
				b.ReportMetric(float64(unsched), "unschedulable")
				note(prof.name, n, func(r *row) {
					r.ours, r.bound, r.oursNodes, r.oursUnsched = sim.HourlyCost, sim.LowerBound, len(sim.Nodes), unsched
					r.configBound = tight.LowerBound
					r.oursNs = b.Elapsed() / time.Duration(b.N)
				})
			})
			b.Run(fmt.Sprintf("%s/pods=%d/upstream", prof.name, n), func(b *testing.B) {
				ctx := upstreamContext()
				var out upstreamResult
				b.ReportAllocs()
				cpuBefore := processCPU()
				for b.Loop() {
					var err error
					if out, err = runUpstream(ctx, nps, its, pods); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((processCPU()-cpuBefore).Microseconds())/1000/float64(b.N), "cpu-ms/op")
				b.ReportMetric(out.cost, "$/h")
				b.ReportMetric(float64(out.nodes), "nodes")
				b.ReportMetric(float64(out.unschedulable), "unschedulable")
				note(prof.name, n, func(r *row) {
					r.upstream, r.upstreamNodes, r.upstreamUnsched = out.cost, out.nodes, out.unschedulable
					r.upstreamNs = b.Elapsed() / time.Duration(b.N)
				})
			})
		}
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	printTable()
	printPredictTable()
	os.Exit(code)
}

// printTable writes the scenarios both sides ran, with the ratios the targets use.
func printTable() {
	mu.Lock()
	defer mu.Unlock()
	var keys, oursOnly []string
	for k, r := range rows {
		if r.oursNs > 0 && r.upstreamNs > 0 {
			keys = append(keys, k)
		} else if r.oursNs > 0 {
			oursOnly = append(oursOnly, k)
		}
	}
	printOursOnly(oursOnly)
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "profile\tpods\tours $/h\tupstream $/h\tLP bound $/h\tconfig bound $/h\tours/upstream\tours/LP bound\tours/config bound\tours nodes\tupstream nodes\tunsched ours/upstream\tours ns/op\tupstream ns/op\tspeed-up\t")
	var gaps, lpGaps []float64
	for _, k := range keys {
		r := rows[k]
		gap := r.ours / r.configBound
		gaps = append(gaps, gap)
		lpGaps = append(lpGaps, r.ours/r.bound)
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t%d\t%d/%d\t%d\t%d\t%.0fx\t\n",
			r.profile, r.pods, r.ours, r.upstream, r.bound, r.configBound, r.ours/r.upstream, r.ours/r.bound, gap,
			r.oursNodes, r.upstreamNodes, r.oursUnsched, r.upstreamUnsched,
			r.oursNs.Nanoseconds(), r.upstreamNs.Nanoseconds(), float64(r.upstreamNs)/float64(r.oursNs))
	}
	tw.Flush()
	sort.Float64s(gaps)
	sort.Float64s(lpGaps)
	fmt.Printf("median ours/config bound: %.4f, ours/LP bound: %.4f, over %d scenarios\n", gaps[len(gaps)/2], lpGaps[len(lpGaps)/2], len(gaps))
	fmt.Println(strings.Repeat("-", 20))
}

// printOursOnly writes the scenarios only the solver ran (-bench '.../ours$'): its cost, both
// bounds and the gaps, to four decimals.
func printOursOnly(keys []string) {
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "profile\tpods\tours $/h\tLP bound $/h\tconfig bound $/h\tours/LP bound\tours/config bound\tours nodes\tours ns/op\t")
	for _, k := range keys {
		r := rows[k]
		fmt.Fprintf(tw, "%s\t%d\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%d\t%d\t\n", r.profile, r.pods, r.ours, r.bound, r.configBound,
			r.ours/r.bound, r.ours/r.configBound, r.oursNodes, r.oursNs.Nanoseconds())
	}
	tw.Flush()
}
