// Package simulate is the simulate command: it reads NodePools, AKSNodeClasses and
// workloads as the review command reads its inputs (files, directories, Kustomize overlays,
// Helm output on standard input, Terraform plans for the pools), simulates each cluster with
// internal/simulation and reports the nodes and what they cost, for a person (text), a
// pull request (markdown) or a program (json).
package simulate

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
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
{"min","max","minNodes","maxNodes","minPending","maxPending","outcomes","runs","exhaustive"}},
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
that cannot be read at all, or a cluster without a region.
`

// Exit codes, as the review command's.
const (
	ExitClean    = review.ExitClean
	ExitFindings = review.ExitFindings
	ExitUsage    = review.ExitUsage
)

type options struct {
	region, mode, format, output, failOn, config string
	hpaMax, strict                               bool
	maxPods, maxNodes                            int
	suppress                                     []findings.Code
	helm                                         review.HelmOptions
	paths                                        []string
}

// Main runs the simulate command with the arguments after "simulate" and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, version string) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return ExitClean
	}
	if err != nil {
		fmt.Fprintf(stderr, "simulate: %v\nRun 'terraform-provider-karpenter simulate -h' for usage.\n", err)
		return ExitUsage
	}
	rep, err := Simulate(ctx, Options{Paths: o.paths, Stdin: stdin, ConfigPath: o.config, Region: o.region, Mode: o.mode, HPAMaxReplicas: o.hpaMax, MaxPods: o.maxPods, MaxNodes: o.maxNodes, Suppress: o.suppress, Strict: o.strict, Helm: o.helm})
	if err != nil {
		fmt.Fprintf(stderr, "simulate: %s\n", review.EscapeText(err.Error()))
		return ExitUsage
	}
	err = review.WriteOutput(stdout, o.output, func(out io.Writer) error {
		switch o.format {
		case "json":
			return WriteJSON(out, rep, version)
		case "markdown":
			return WriteMarkdown(out, rep)
		}
		return WriteText(out, rep)
	})
	if err != nil {
		fmt.Fprintf(stderr, "simulate: writing the report: %s\n", review.EscapeText(err.Error()))
		return ExitUsage
	}
	threshold, _ := findings.ParseSeverity(o.failOn)
	if slices.ContainsFunc(rep.Findings, func(f review.Finding) bool { return f.Severity() >= threshold }) {
		return ExitFindings
	}
	return ExitClean
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.region, "region", "", "region of clusters whose config file or plan names none: Azure (e.g. westeurope) or, for EKS pools, AWS (e.g. us-east-1)")
	fs.StringVar(&o.mode, "mode", simulation.Karpenter, "karpenter, optimal or both")
	fs.StringVar(&o.format, "format", "text", "report format: text, json or markdown")
	fs.StringVar(&o.output, "output", "", "write the report to this file instead of standard output")
	fs.StringVar(&o.failOn, "fail-on", "error", "exit with 1 when a finding of this severity or higher remains: warning or error")
	fs.StringVar(&o.config, "config", "", "config file (default: .karpenter-review.yaml upward from the first path)")
	fs.BoolVar(&o.hpaMax, "hpa-max", false, "count workloads an HPA scales at its maxReplicas (the cost at peak)")
	fs.Func("suppress", "drop findings of these codes, e.g. KRP302 or KRP302,KRP412 (repeatable; the config file's suppress lists apply too)", func(s string) error {
		codes, err := findings.ParseCodes(s)
		o.suppress = append(o.suppress, codes...)
		return err
	})
	fs.BoolVar(&o.strict, "strict", false, "report warnings as errors")
	fs.IntVar(&o.maxPods, "max-pods", simulation.MaxPods, "simulate a cluster of at most this many pods (Kubernetes' documented limit); past it, KRP306 at the workload and nothing simulated")
	fs.IntVar(&o.maxNodes, "max-nodes", simulation.MaxNodes, "simulate a cluster whose pods need at most this many nodes (Kubernetes' and AKS's limit); past it, KRP306 and nothing simulated")
	fs.Func("helm-values", "values file for the Helm charts met (directories with a Chart.yaml), as helm template -f (repeatable; later files win)", func(s string) error {
		o.helm.ValuesFiles = append(o.helm.ValuesFiles, s)
		return nil
	})
	fs.BoolVar(&o.helm.Off, "no-helm", false, "do not render Helm charts: read their files as they are, as for review --no-helm")
	fs.Func("helm-set", "value for the Helm charts met, as helm template --set (repeatable; applied after --helm-values)", func(s string) error {
		o.helm.Set = append(o.helm.Set, s)
		return nil
	})
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
		fmt.Fprint(stderr, usageTail)
	}
	var err error
	if o.paths, err = review.ParseInterspersed(fs, args); err != nil { // flags may follow paths, as for review
		return nil, err
	}
	if !slices.Contains(simulation.Modes, o.mode) {
		return nil, fmt.Errorf("unknown --mode %q (want %s)", o.mode, strings.Join(simulation.Modes, ", "))
	}
	switch o.format {
	case "text", "json", "markdown":
	default:
		return nil, fmt.Errorf("unknown --format %q (want text, json or markdown)", o.format)
	}
	if o.failOn != "warning" && o.failOn != "error" {
		return nil, fmt.Errorf("unknown --fail-on %q (want warning or error)", o.failOn)
	}
	stdins := 0
	for _, p := range o.paths {
		if p == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return nil, errors.New(`standard input ("-") can be read only once`)
	}
	return o, nil
}
