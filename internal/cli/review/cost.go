package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds/crdtree"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/money"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// CostOptions ask a review for predicted costs.
type CostOptions struct {
	// Workloads are paths read for workloads (as review reads paths; "-" is standard input).
	Workloads []string
	// Baseline is a second checkout: the review's and the workloads' relative paths are read
	// below it as well, and the costs compared.
	Baseline string
	// HPAMaxReplicas counts workloads an HPA scales at its maxReplicas.
	HPAMaxReplicas bool
	// MaxPods and MaxNodes cap a cluster's workloads (0: simulation.MaxPods, MaxNodes): past
	// them it gets no cost and KRP306 says why.
	MaxPods, MaxNodes int
	// SteadyState runs each cluster on to Karpenter's steady state on a simulated clock
	// (simulation.Settle): its nodes, cost and disruptions are reported, and KRP118 is judged
	// on it. The baseline is costed on its first round only.
	SteadyState bool
}

// visited are the loaded clusters, and their documents by cluster, kept for the costs.
type visited struct {
	clusters []*assemble.Cluster
	docs     map[string][]workload.Document
}

func visitedOf(ld *Loaded) *visited {
	v := &visited{docs: map[string][]workload.Document{}}
	for _, lc := range ld.Clusters {
		v.clusters = append(v.clusters, lc.Cluster)
		v.docs[lc.Name] = append(v.docs[lc.Name], lc.Documents...)
	}
	return v
}

// ReviewWithCosts runs the review and adds the predicted cost of each cluster: its pools with
// the workloads of its own inputs and of co.Workloads (those the config maps to the cluster,
// else those of the default cluster). Workload findings join the report's.
func ReviewWithCosts(ctx context.Context, opts Options, co CostOptions) (*report.Report, error) {
	if co.Baseline != "" && slices.Contains(opts.Paths, "-") {
		return nil, &source.InputError{Err: errors.New("--baseline needs paths, not standard input, for what is reviewed")}
	}
	if slices.Contains(opts.Paths, "-") && slices.Contains(co.Workloads, "-") {
		return nil, &source.InputError{Err: errors.New(`standard input ("-") can be read only once`)}
	}
	ld, err := Load(opts, true)
	if err != nil {
		return nil, err
	}
	rep, head := ld.Review(ctx, opts), visitedOf(ld)
	wl, wlFindings, err := readWorkloadDocs(ctx, opts, co.Workloads, opts.Stdin)
	if err != nil {
		return nil, err
	}
	var base *visited
	var baseWl map[string][]workload.Document
	if co.Baseline != "" {
		if !source.IsDir(co.Baseline) {
			return nil, &source.InputError{Err: fmt.Errorf("--baseline %s is not a directory", co.Baseline)}
		}
		bopts := opts
		bopts.Paths, bopts.Checks, bopts.Facts, bopts.noFleet = underBaseline(co.Baseline, pathsOrDot(opts.Paths)), []checks.Check{}, []checks.FactFunc{}, true
		if opts.ConfigPath != "" {
			bopts.ConfigPath = underBaseline(co.Baseline, []string{opts.ConfigPath})[0]
		}
		bld, err := Load(bopts, true)
		if err != nil {
			return nil, fmt.Errorf("baseline: %w", err)
		}
		base = visitedOf(bld)
		baseWl = wl // workloads from standard input are the same on both sides
		if !slices.Contains(co.Workloads, "-") {
			if baseWl, _, err = readWorkloadDocs(ctx, bopts, underBaseline(co.Baseline, co.Workloads), nil); err != nil {
				return nil, fmt.Errorf("baseline: %w", err)
			}
		}
	}
	rep.Findings = append(rep.Findings, wlFindings...)
	for _, c := range head.clusters {
		set := workload.Read(docsFor(c.Name, head.docs, wl), workload.Options{HPAMaxReplicas: co.HPAMaxReplicas, MaxPods: co.MaxPods})
		cc := clusterCost(ctx, opts.analyzer(), c, set, co, true) // names the pools in the reader's KRP302 findings
		for _, f := range append(assemble.WorkloadFindings(set.Findings), cc.Findings...) {
			f.Cluster = c.Name
			rep.Findings = append(rep.Findings, f)
		}
		if cc.Advice != nil {
			f := checks.AdviceFinding(c, cc.Advice)
			checks.ReconcileAdvice(rep.Findings, &f, cc.Advice)
			rep.Findings = append(rep.Findings, f)
		}
		if base != nil {
			i := slices.IndexFunc(base.clusters, func(b *assemble.Cluster) bool { return b.Name == c.Name })
			if i < 0 {
				cc.Notes = append(cc.Notes, "the baseline has no cluster of this name")
			} else {
				b := base.clusters[i]
				bco := co
				bco.SteadyState = false
				bc := clusterCost(ctx, opts.analyzer(), b, workload.Read(docsFor(b.Name, base.docs, baseWl), workload.Options{HPAMaxReplicas: co.HPAMaxReplicas, MaxPods: co.MaxPods}), bco, false)
				compare(&cc, bc)
			}
		}
		rep.Costs = append(rep.Costs, cc)
	}
	// Workloads the config maps to a cluster the review has no inputs for are not silently dropped.
	for name := range wl {
		if name != "" && !slices.ContainsFunc(head.clusters, func(c *assemble.Cluster) bool { return c.Name == name }) {
			rep.Costs = append(rep.Costs, report.ClusterCost{Cluster: name, Pools: []report.PoolCost{},
				Notes: []string{"no cost: the config maps workloads to this cluster, but none of the reviewed paths holds its NodePools"}})
		}
	}
	slices.SortStableFunc(rep.Costs[len(head.clusters):], func(a, b report.ClusterCost) int { return strings.Compare(a.Cluster, b.Cluster) })
	// The workload findings get the suppressions and --strict the review's own got.
	var suppressed []source.Finding
	if rep.Findings, suppressed, err = Finish(rep.Findings, opts); err != nil {
		return nil, err
	}
	rep.Suppressed += len(suppressed)
	rep.SuppressedFindings = append(rep.SuppressedFindings, suppressed...)
	rep.CountFleet()
	return rep, nil
}

// readWorkloadDocs reads the workload paths as the review reads inputs, by cluster.
func readWorkloadDocs(ctx context.Context, opts Options, paths []string, stdin io.Reader) (map[string][]workload.Document, []source.Finding, error) {
	if len(paths) == 0 {
		return nil, nil, nil
	}
	o := Options{Paths: paths, Stdin: stdin, ConfigPath: opts.ConfigPath, Region: opts.Region, Analyzer: opts.Analyzer,
		Checks: []checks.Check{}, Facts: []checks.FactFunc{}, noFleet: true}
	ld, err := Load(o, true)
	if err != nil {
		return nil, nil, err
	}
	return visitedOf(ld).docs, ld.Review(ctx, o).Findings, nil
}

// docsFor is a cluster's documents: its own inputs', the workloads the config maps to it, and
// those it maps to no cluster (WithShared).
func docsFor(name string, own, wl map[string][]workload.Document) []workload.Document {
	docs := append(slices.Clone(own[name]), wl[name]...)
	if name == "" {
		return WithShared(docs, nil)
	}
	return WithShared(docs, wl[""])
}

// WithShared is a named cluster's documents with the workloads no cluster of the config maps,
// each document once (--workloads naming a path that is also reviewed). The rule, for review
// --workloads and simulate alike: a workload whose file no cluster's paths match runs in every
// cluster, as a fleet's common apps do, on top of the cluster's own; the unnamed cluster is
// simulated only for NodePools of its own.
func WithShared(docs, shared []workload.Document) []workload.Document {
	type at struct {
		file string
		line int
	}
	seen := map[at]bool{}
	var out []workload.Document
	for _, d := range append(slices.Clone(docs), shared...) {
		if k := (at{d.File, d.Line}); !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// clusterCost simulates a cluster: with Karpenter's scheduler where the build has it, else
// the optimal packing, and the method says which; with advise, the NodePool edit advised.
func clusterCost(ctx context.Context, an *analysis.Analyzer, c *assemble.Cluster, set *workload.Set, co CostOptions, advise bool) report.ClusterCost {
	cc := report.ClusterCost{Cluster: c.Name, Region: c.Region, Pools: []report.PoolCost{}}
	if set.PastCap {
		cc.Notes = append(cc.Notes, "no cost: the workloads hold more pods than a cluster can run (KRP306)")
		return cc
	}
	if c.Region == "" {
		cc.Notes = append(cc.Notes, "no cost: the cluster has no region (--region or region in .karpenter-review.yaml)")
		return cc
	}
	in := simulation.Input{Region: c.Region, Pods: set.Pods, DaemonSets: set.DaemonSets, MaxPods: co.MaxPods, MaxNodes: co.MaxNodes, SteadyState: co.SteadyState}
	if co.SteadyState {
		in.PDBs = simulation.PodDisruptionBudgets(set)
	}
	for _, p := range c.NodePools {
		known, unknown := crdtree.StripUnknown(p.Body)
		if len(unknown) > 0 {
			cc.Notes = append(cc.Notes, p.Label()+" is left out: values known only after apply")
			continue
		}
		in.NodePools = append(in.NodePools, known)
	}
	for _, nc := range c.NodeClasses {
		known, _ := crdtree.StripUnknown(nc.Body)
		in.NodeClasses = append(in.NodeClasses, known)
	}
	cc.Method = simulation.Karpenter
	res, err := simulation.Simulate(ctx, an, in, simulation.Both)
	if f, ok := simulation.SizeFinding(set, err); ok {
		cc.Findings = assemble.WorkloadFindings([]workload.Finding{f})
	}
	if err != nil {
		cc.Notes = append(cc.Notes, "no cost: "+err.Error())
		return cc
	}
	if advise {
		if cc.Advice, err = simulation.Advise(an, in, res); err != nil {
			cc.Notes = append(cc.Notes, "no advice: "+err.Error())
		}
	}
	_, sim := res.Primary()
	var pending []workload.Finding
	if advise { // the reviewed checkout's, not the baseline's, whose findings are not reported
		if pending, err = simulation.PendingFindings(an, in, set, res); err != nil {
			cc.Notes = append(cc.Notes, "pending pods not judged: "+err.Error())
		}
	}
	cc.Findings = assemble.WorkloadFindings(append(simulation.DisruptionFindings(set, res), pending...))
	simulation.NamePoolsOfRequestless(set, res)
	cc.HourlyCost, cc.OptimalHourlyCost, cc.LowerBound = sim.HourlyCost, res.Optimal.HourlyCost, res.LowerBound()
	cc.Currency = res.Currency()
	for _, u := range sim.Unschedulable {
		cc.Unschedulable += u.Count
	}
	for _, p := range simulation.PoolCosts(sim, res.Pools) {
		cc.Pools = append(cc.Pools, report.PoolCost{Pool: p.Pool, Nodes: p.Nodes, HourlyCost: p.HourlyCost})
	}
	if p := res.Provisioned; p != nil {
		cc.Provisioned = &report.ProvisionedCost{Label: simulation.ProvisionedLabel(p), Rounds: p.Rounds, Nodes: len(p.Nodes), HourlyCost: simulation.Round(p.HourlyCost)}
		for _, u := range p.Unschedulable {
			cc.Provisioned.Unschedulable += u.Count
		}
	}
	if st := res.Settled; st != nil {
		cc.Settled = st
		cc.SteadyState, _ = simreport.Settled(c.Name, st)
	}
	cc.Notes = append(cc.Notes, res.Skipped...)
	cc.Notes = append(cc.Notes, set.Assumptions...)
	cc.Notes = append(cc.Notes, res.Assumptions...)
	return cc
}

// compare records the baseline's cost beside the head's, pool by pool.
func compare(cc *report.ClusterCost, base report.ClusterCost) {
	if base.Method == "" {
		cc.Notes = append(cc.Notes, "the baseline could not be simulated: "+strings.Join(base.Notes, "; "))
		return
	}
	if !money.Same(cc.Currency, base.Currency) {
		cc.BaselineCurrency = base.Currency
		cc.Notes = append(cc.Notes, fmt.Sprintf("the baseline costs %s and is not compared: it prices in %s, this in %s",
			money.Hourly(base.Currency, base.HourlyCost), money.Code(base.Currency), money.Code(cc.Currency)))
		return
	}
	total := base.HourlyCost
	cc.BaselineHourlyCost, cc.BaselineMethod = &total, base.Method
	for _, bp := range base.Pools {
		if !slices.ContainsFunc(cc.Pools, func(p report.PoolCost) bool { return p.Pool == bp.Pool }) {
			cc.Pools = append(cc.Pools, report.PoolCost{Pool: bp.Pool})
		}
	}
	for i := range cc.Pools {
		p := &cc.Pools[i]
		n, cost := 0, 0.0
		if j := slices.IndexFunc(base.Pools, func(b report.PoolCost) bool { return b.Pool == p.Pool }); j >= 0 {
			n, cost = base.Pools[j].Nodes, base.Pools[j].HourlyCost
		}
		d := simulation.Round(p.HourlyCost - cost)
		p.BaselineNodes, p.BaselineHourlyCost, p.Delta = &n, &cost, &d
	}
}

func pathsOrDot(p []string) []string {
	if len(p) == 0 {
		return []string{"."}
	}
	return p
}
