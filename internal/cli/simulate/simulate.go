package simulate

import (
	"context"
	"fmt"
	"io"
	"sort"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clusterstate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// Options configure one simulation run.
type Options struct {
	Paths          []string
	Stdin          io.Reader
	ConfigPath     string
	Region         string
	Mode           string
	HPAMaxReplicas bool
	// MaxPods and MaxNodes cap a cluster's input (0: the documented limits, simulation.MaxPods
	// and simulation.MaxNodes); past them the cluster is not simulated and KRP306 says why.
	MaxPods, MaxNodes int
	// Suppress and Strict are review's: codes dropped (with the config file's suppressions),
	// warnings made errors.
	Suppress []findings.Code
	Strict   bool
	// Helm renders the Helm charts met in the paths, as for review.
	Helm source.HelmOptions
	// State is the running cluster the input changes, when set: its drift is reported.
	State StateOptions
}

// Report is the outcome over all clusters.
type Report struct {
	Mode     string           `json:"mode"`
	Clusters []ClusterReport  `json:"clusters"`
	Findings []source.Finding `json:"findings"`
	// Skipped are inputs or parts of them the reading did not follow (review's).
	Skipped []assemble.Skipped `json:"skipped,omitempty"`
	// Files is how many files the reading read.
	Files int `json:"files"`
}

// ClusterReport is one cluster's simulation.
type ClusterReport struct {
	Name      string             `json:"name"`
	Region    string             `json:"region"`
	Result    *simulation.Result `json:"-"`
	Workloads []WorkloadSummary  `json:"workloads"`
	// Advice is the cheapest NodePool edit verified with Karpenter's decision, when its cost
	// exceeds the optimum by more than 10 % (mode both only: it needs the optimum).
	Advice *simulation.Advice `json:"advice,omitempty"`
	// Drift is what the input does to the running cluster (with a cluster state only).
	Drift *ClusterDrift `json:"-"`
}

// WorkloadSummary says what the simulation read of a workload.
type WorkloadSummary struct {
	Object       string            `json:"object"`
	Namespace    string            `json:"namespace"`
	File         string            `json:"file"`
	Line         int               `json:"line,omitempty"`
	Replicas     int               `json:"replicas"`
	ReplicasFrom string            `json:"replicasFrom"`
	Requests     map[string]string `json:"requests"`
}

// newAnalyzer is the process's one analyzer, which the review's stages share.
var newAnalyzer = clitool.Analyzer

// Simulate reads the inputs as the review does (its input findings and schema check
// included) and simulates every cluster in the mode.
func Simulate(ctx context.Context, o Options) (*Report, error) {
	rep := &Report{Mode: o.Mode}
	var visits []visited
	var failure error
	var state *clusterstate.Snapshot
	if o.State.set() {
		var err error
		if state, err = loadState(ctx, o.State); err != nil {
			return nil, err
		}
		for _, p := range state.Problems {
			rep.Findings = append(rep.Findings, source.Finding{Finding: p.Finding, Location: source.Location{File: p.File, Line: p.Line}})
		}
	}
	sp, err := scenarioOf(o.Paths)
	if err != nil {
		return nil, err
	}
	if o.Region == "" {
		o.Region = sp.Region
	}
	// The change's tree, when a scenario has after/: its clusters by name.
	var after *review.Loaded
	afterOf := map[string]visited{}
	simulateCluster := func(c *assemble.Cluster, docs []workload.Document) {
		if failure != nil {
			return
		}
		set := workload.Read(docs, workload.Options{HPAMaxReplicas: o.HPAMaxReplicas, MaxPods: o.MaxPods})
		cr := ClusterReport{Name: c.Name, Region: c.Region}
		defer func() { // after the simulation, which names the pools in KRP302
			for _, f := range assemble.WorkloadFindings(set.Findings) {
				f.Cluster = c.Name
				rep.Findings = append(rep.Findings, f)
			}
		}()
		for _, w := range set.Workloads {
			cr.Workloads = append(cr.Workloads, summarize(w))
		}
		if set.PastCap {
			return // KRP306 on the workload that crossed the cap
		}
		if c.Region == "" {
			failure = fmt.Errorf("cluster %s has no region: pass --region or set region in .karpenter-review.yaml", label(c.Name))
			return
		}
		in, skipped := clusterInput(c, set, o)
		if a, ok := afterOf[c.Name]; ok && after != nil {
			ain, askipped := clusterInput(a.c, workload.Read(a.docs, workload.Options{HPAMaxReplicas: o.HPAMaxReplicas, MaxPods: o.MaxPods}), o)
			in.After = &ain
			for _, x := range askipped {
				skipped = append(skipped, "after: "+x)
			}
		}
		if state != nil {
			in.Start = simulation.Start(newAnalyzer(), state, in)
		}
		res, err := simulation.Simulate(ctx, newAnalyzer(), in, o.Mode)
		if f, ok := simulation.SizeFinding(set, err); ok {
			set.Findings = append(set.Findings, f)
			return
		}
		if err != nil {
			failure = fmt.Errorf("cluster %s: %w", label(c.Name), err)
			return
		}
		adv, err := simulation.Advise(newAnalyzer(), in, res)
		if err != nil {
			failure = fmt.Errorf("cluster %s: advice: %w", label(c.Name), err)
			return
		}
		if adv != nil {
			cr.Advice = adv
			rep.Findings = append(rep.Findings, checks.AdviceFinding(c, adv))
		}
		res.Skipped = append(skipped, res.Skipped...)
		simulation.NamePoolsOfRequestless(set, res)
		pending, err := simulation.PendingFindings(newAnalyzer(), in, set, res)
		if err != nil {
			failure = fmt.Errorf("cluster %s: pending pods: %w", label(c.Name), err)
			return
		}
		for _, f := range assemble.WorkloadFindings(append(simulation.DisruptionFindings(set, res), pending...)) {
			f.Cluster = c.Name
			rep.Findings = append(rep.Findings, f)
		}
		res.Assumptions = append(set.Assumptions, res.Assumptions...)
		if state != nil {
			if cr.Drift, err = driftOf(ctx, state, in, o.State.Start); err != nil {
				failure = fmt.Errorf("cluster %s: drift: %w", label(c.Name), err)
				return
			}
			rep.Findings = append(rep.Findings, driftFindings(c, cr.Drift)...)
		}
		cr.Result = res
		rep.Clusters = append(rep.Clusters, cr)
	}
	ropts := review.Options{Paths: sp.Before, Stdin: o.Stdin, ConfigPath: o.ConfigPath, Region: o.Region, Suppress: o.Suppress, Strict: o.Strict, Helm: o.Helm,
		Checks: []checks.Check{checks.CheckSchema, checks.CheckNodeClassRefs}, Facts: []checks.FactFunc{}}
	loaded, err := review.Load(ropts, true)
	if err != nil {
		return nil, err
	}
	rv := loaded.Review(ctx, ropts)
	var afterFindings []source.Finding
	if sp.After != nil {
		aopts := ropts
		aopts.Paths = sp.After
		if after, err = review.Load(aopts, true); err != nil {
			return nil, fmt.Errorf("after: %w", err)
		}
		afterFindings = after.Review(ctx, aopts).Findings
		if afterOf, err = afterClusters(loaded, after); err != nil {
			return nil, err
		}
	}
	for _, c := range loaded.Clusters {
		visits = append(visits, visited{c.Cluster, c.Documents})
	}
	// Workloads no cluster of the config maps run in every cluster (review.WithShared); the
	// unnamed cluster is simulated only for NodePools of its own.
	shared, named := sharedDocs(visits)
	for _, v := range visits {
		switch {
		case v.c.Name != "":
			simulateCluster(v.c, review.WithShared(v.docs, shared))
		case !named || len(v.c.NodePools) > 0:
			simulateCluster(v.c, v.docs)
		}
	}
	if failure != nil {
		return nil, failure
	}
	if state != nil && len(rep.Clusters) > 1 {
		return nil, fmt.Errorf("a cluster state is one cluster's, but the input maps to %d clusters: simulate them one at a time (--config naming one)", len(rep.Clusters))
	}
	rep.Skipped, rep.Files = rv.Skipped, rv.Files
	// The review applied its suppressions and --strict to its own findings; the simulation's
	// get the same.
	if rep.Findings, _, err = review.Finish(rep.Findings, ropts); err != nil {
		return nil, err
	}
	rep.Findings = append(rv.Findings, rep.Findings...)
	rep.Findings = append(rep.Findings, afterOnly(afterFindings, rv.Findings)...)
	sort.SliceStable(rep.Findings, func(i, j int) bool {
		a, b := rep.Findings[i], rep.Findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return rep, nil
}

// visited is a loaded cluster, with its other documents.
type visited struct {
	c    *assemble.Cluster
	docs []workload.Document
}

// sharedDocs are the documents of the unnamed cluster (files no cluster of the config maps)
// when named clusters were visited too (named); nil otherwise.
func sharedDocs(vs []visited) (shared []workload.Document, named bool) {
	var unnamed []workload.Document
	for _, v := range vs {
		if v.c.Name != "" {
			named = true
		} else {
			unnamed = v.docs
		}
	}
	if !named {
		return nil, false
	}
	return unnamed, true
}

func summarize(w workload.Workload) WorkloadSummary {
	req := map[string]string{}
	for k, v := range workload.Requests(w.Pod) {
		req[string(k)] = v.String()
	}
	return WorkloadSummary{Object: w.Label(), Namespace: w.Namespace, File: w.File, Line: w.Line, Replicas: w.Replicas, ReplicasFrom: w.ReplicasFrom, Requests: req}
}

func label(name string) string {
	if name == "" {
		return "(unnamed)"
	}
	return name
}
