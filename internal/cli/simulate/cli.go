package simulate

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

const usageHead = `Usage: terraform-provider-karpenter simulate [flags] [paths...|-]

Simulates, offline, the nodes Karpenter on AKS would launch for the workloads in the input and
what they cost per hour, from the embedded SKU catalog; EKS NodePools (an EC2NodeClass
reference) from the embedded EC2 catalog, e.g. --region us-east-1, with the AWS provider's
launch choice (spot when allowed, the cheapest offering; price-capacity-optimized spot
allocation is out of reach offline, and the result's assumptions say so). Paths are read as the review command
reads them: Kubernetes YAML or JSON files, directories (recursively), kustomizations and
Terraform plans (terraform show -json plan.out > plan.json) for the NodePools; "-" reads
standard input, e.g.
  helm template web ./chart | terraform-provider-karpenter simulate --region westeurope pools/ -
Workloads are Deployments, ReplicaSets, StatefulSets, ReplicationControllers, Jobs, CronJobs
(one run), Pods and DaemonSets, with replicas as written (--hpa-max: an HPA's maxReplicas).
A .karpenter-review.yaml maps paths to clusters with their region, as for review; a workload whose
file no cluster's paths match runs in every cluster, on top of the cluster's own (as review
--workloads counts it), and files no cluster maps are simulated as a cluster of their own only
when they hold NodePools.

A directory holding before/ (and optionally after/) is a scenario: before/ is provisioned from an
empty cluster and run to Karpenter's steady state (emulated), then after/'s objects replace
before/'s and Karpenter runs to the steady state again (JSON "steadyStateAfter"); clusters are
matched by name, scenario.yaml's region applies to both, and after/ without before/ is an error.

Modes: karpenter (default: what Karpenter's scheduler would launch, as the emulation of its
v1.14 scheduler and the Azure provider's launch choice decides), optimal (the cheapest packing the
solver finds; a lower bound no packing can beat is reported with it), both. The optimum keeps
requests, node selectors, the first required node affinity term, tolerations, NodePool order and
limits, DoNotSchedule spreads over zones (split evenly; the bound holds for every split maxSkew
allows) and over kubernetes.io/hostname (at most maxSkew per node), and required anti-affinity
over kubernetes.io/hostname on the workload's own pods (one per node); it ignores pod affinity,
anti-affinity over zones or other keys, preferred terms, ScheduleAnyway spreads and minDomains,
counts spreads and anti-affinity among the workload's own pods only, and says so in the
assumptions. With both, when
Karpenter's cost exceeds the optimum by more than 10 %, a few NodePool edits are tried with
Karpenter's decision and the cheapest that keeps every pod schedulable is advised (KRP118).
Where Karpenter breaks ties at random (equally loaded zones of a topology spread, the order of
daemon overhead groups), the nodes shown break each tie by name, and the karpenter figures add
how many ties there were and the cost range of Karpenter's outcomes with other tie-breaks: every
distinct outcome when the walk of its choices (one zone per class of zones the round cannot tell
apart) ends within its budget, else the outcomes walked and a seeded sample of at most 16 runs.

JSON (--format json): {"version":1, "mode", "karpenter": {"nodes":[{"cluster","pool",
"instanceType","capacityType","zone","zoneAssumed" (true when the catalog does not list the
size in that zone: assumed, see the assumptions),"pods","workloads","hourlyPrice","currency"}], "hourlyCost","currency",
"unschedulable":[{"cluster","workload","count","reason"}], "tieBreaks", "hourlyCostRange":
{"min","max","minNodes","maxNodes","minPending","maxPending","outcomes","runs","exhaustive",
"expected" (the mean hourly cost over "samples" seeded draws of Karpenter's random choices),"samples"}},
"optimal": {same, "fromKarpenter" (true when no packing cheaper than Karpenter's own was found:
its nodes are shown)}, "lowerBound", "currency",
"clusters":[{"name","region","currency","karpenter","optimal","lowerBound","pools","workloads",
"assumptions","skipped","advice"}], "findings":[...], "files" (how many files were read)}; advice (mode both, when given):
{"edit":{"pool","requirement","replaces","remove","assumesInterruptible"},"hourlyCost",
"karpenterHourlyCost","optimalHourlyCost","lowerBound","saving","savingPercent","spot","trials"}; a mode not run is null. Costs are per hour, in the ISO 4217 "currency" of the price table
(USD; CNY in AWS's China regions); sums over clusters that price in different currencies are
never added: their "currency" is "mixed", the sums 0, and "hourlyCostByCurrency" /
"lowerBoundByCurrency" hold one sum per currency.

Flags:
`

const usageTail = `
A cluster past 150,000 pods or whose pods need more than 5,000 nodes (Kubernetes' and AKS's documented
limits; usually a typo in replicas) is not simulated: KRP306, an error, names the workload; --max-pods and
--max-nodes raise the caps.

Exit codes: 0 when no finding reaches --fail-on, 1 when one does, 2 for usage errors, an input
that cannot be read at all, a cluster without a region, or no NodePool in the inputs (the wrong
path; --allow-empty makes that 0).
`

// Exit codes, as the review command's.
const (
	ExitClean    = clitool.ExitClean
	ExitFindings = clitool.ExitFindings
	ExitUsage    = clitool.ExitUsage
)

// options are the parsed flags: the ones every command takes, and simulate's own.
type options struct {
	*clitool.Command
	mode              string
	hpaMax            bool
	maxPods, maxNodes int
	state             StateOptions
}

// Main runs the simulate command with the arguments after "simulate" and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, version string) int {
	o := newFlags()
	if code, done := o.Start(args, stdout, stderr, version); done {
		return code
	}
	rep, err := Simulate(ctx, Options{Paths: o.Paths, Stdin: stdin, ConfigPath: o.Config, Region: o.Region, Mode: o.mode, HPAMaxReplicas: o.hpaMax, MaxPods: o.maxPods, MaxNodes: o.maxNodes, Suppress: o.Suppress, Strict: o.Strict,
		Helm: source.HelmOptions{ValuesFiles: o.HelmValues, Set: o.HelmSet, Off: o.NoHelm}, State: o.state})
	if err != nil {
		return o.Fail(stderr, err)
	}
	err = clitool.WriteOutput(stdout, o.Output, func(out io.Writer) error {
		switch o.Format {
		case "json":
			return WriteJSON(out, rep, version)
		case "markdown":
			return WriteMarkdown(out, rep)
		}
		return WriteText(out, rep)
	})
	if err != nil {
		return o.Fail(stderr, fmt.Errorf("writing the report: %w", err))
	}
	capped := slices.ContainsFunc(rep.Findings, func(f source.Finding) bool { return f.Code == findings.PodsPastClusterLimits })
	if pools, _, _ := rep.counts(); pools == 0 && !capped && !o.AllowEmpty {
		// A CI job given the wrong path must not pass: the report said what the command reads.
		fmt.Fprintln(stderr, "simulate: "+noPoolsHint+" (--allow-empty to accept)")
		return ExitUsage
	}
	threshold := o.FailOnThreshold()
	if slices.ContainsFunc(rep.Findings, func(f source.Finding) bool { return f.Severity() >= threshold }) {
		return ExitFindings
	}
	return ExitClean
}

// newFlags is the simulate command's flag set.
func newFlags() *options {
	o := &options{Command: clitool.New("simulate", usageHead, usageTail, "text", "json", "markdown")}
	o.Flags.StringVar(&o.mode, "mode", simulation.Karpenter, "karpenter, optimal or both")
	o.Flags.BoolVar(&o.hpaMax, "hpa-max", false, "count workloads an HPA scales at its maxReplicas (the cost at peak)")
	o.Flags.IntVar(&o.maxPods, "max-pods", simulation.MaxPods, "simulate a cluster of at most this many pods (Kubernetes' documented limit); past it, KRP306 at the workload and nothing simulated")
	o.Flags.IntVar(&o.maxNodes, "max-nodes", simulation.MaxNodes, "simulate a cluster whose pods need at most this many nodes (Kubernetes' and AKS's limit); past it, KRP306 and nothing simulated")
	o.Flags.Func("cluster-state", "the running cluster's state, as `kubectl get nodes,nodeclaims,pods,pdb,nodepools,aksnodeclasses -A -o yaml` prints it (a file or a directory of them; repeatable): the NodeClaims the input's NodePools and node classes drift are reported", func(s string) error {
		o.state.Files = append(o.state.Files, s)
		return nil
	})
	o.Flags.StringVar(&o.state.Kubeconfig, "kubeconfig", "", "read the running cluster's state through this kubeconfig instead (get and list only), as --cluster-state")
	o.Flags.StringVar(&o.state.Context, "context", "", "the kubeconfig context for --kubeconfig (default: its current context)")
	o.Check(func() error {
		if !slices.Contains(simulation.Modes, o.mode) {
			return fmt.Errorf("unknown --mode %q (want %s)", o.mode, strings.Join(simulation.Modes, ", "))
		}
		return nil
	})
	return o
}
