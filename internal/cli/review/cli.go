package review

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"golang.org/x/term"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// Exit codes of the review command.
const (
	ExitClean    = clitool.ExitClean
	ExitFindings = clitool.ExitFindings
	ExitUsage    = clitool.ExitUsage
)

const usageHead = `Usage: terraform-provider-karpenter review [flags] [paths...|-]

Reviews Karpenter NodePools and AKSNodeClasses offline with the checks the provider runs at
plan time: the API server's own schema and CEL validation, node class references, competing
pools and limits. EKS NodePools and their EC2NodeClasses are reviewed the same way against the
embedded EC2 catalog (--region us-east-1; the GovCloud regions and cn-north-1 have their own
on-demand prices, other AWS regions us-east-1's). Paths are Kubernetes YAML or JSON files, directories (searched recursively
for *.yaml, *.yml, *.json and kustomizations; hidden entries skipped) and Terraform plans
(terraform show -json plan.out > plan.json). "-" reads standard input, e.g.
  kustomize build clusters/prod | terraform-provider-karpenter review -
No path means the current directory. A .karpenter-review.yaml found upward from the first
path (or given with --config) maps paths to clusters with their region and suppressions.
Only regular files are read, within size limits, and only below the working directory, the
config file's directory and the paths given (KRP012 otherwise): the tree may be untrusted.

Flags:
`

const usageTail = `
Exit codes: 0 when no finding reaches --fail-on, 1 when one does, 2 for usage errors, a bad
config file, an input that cannot be read at all, or nothing to review (no Karpenter object and
no finding: the wrong path; --allow-empty makes that 0).
`

// reviewMemoryLimit is the review command's soft memory limit.
const reviewMemoryLimit = 256 << 20

// cliOptions are the parsed flags: the ones every command takes, and review's own.
type cliOptions struct {
	*clitool.Command
	color          string
	allowTemplates bool
	limits         source.Limits
	// workloads and baseline ask for predicted costs (cost.go).
	workloads []string
	baseline  string
	hpaMax    bool
	steady    bool
	// maxPods and maxNodes: with --workloads, the caps of a cluster's simulation.
	maxPods, maxNodes int
}

// Main runs the review command with the arguments after "review" and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, version string) int {
	o := newFlags()
	if code, done := o.Start(args, stdout, stderr, version); done {
		return code
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// What a review keeps is small (about 12 KB a NodePool), but validating each object
		// leaves garbage that the collector, left to its default pace, lets grow to several
		// times that on a CI runner other jobs share. A soft limit makes it collect sooner;
		// it never fails the review (GOMEMLIMIT overrides it).
		debug.SetMemoryLimit(reviewMemoryLimit)
	}
	opts := Options{Paths: o.Paths, Stdin: stdin, ConfigPath: o.Config, Region: o.Region, Strict: o.Strict, Suppress: o.Suppress, Limits: o.limits, AllowTemplates: o.allowTemplates,
		Helm: source.HelmOptions{ValuesFiles: o.HelmValues, Set: o.HelmSet, Off: o.NoHelm}}
	var rep *report.Report
	var err error
	if len(o.workloads) > 0 || o.baseline != "" {
		rep, err = ReviewWithCosts(ctx, opts, CostOptions{Workloads: o.workloads, Baseline: o.baseline, HPAMaxReplicas: o.hpaMax, MaxPods: o.maxPods, MaxNodes: o.maxNodes, SteadyState: o.steady})
	} else {
		rep, err = Review(ctx, opts)
	}
	if err != nil {
		return o.Fail(stderr, err)
	}
	err = clitool.WriteOutput(stdout, o.Output, func(out io.Writer) error {
		switch o.Format {
		case "json":
			return report.WriteJSON(out, rep, version)
		case "sarif":
			return report.WriteSARIF(out, rep, version)
		}
		if err := report.WriteText(out, rep, useColor(o.color, out)); err != nil || len(rep.Costs) == 0 {
			return err
		}
		return report.WriteCostsText(out, rep.Costs)
	})
	if err != nil {
		return o.Fail(stderr, fmt.Errorf("writing the report: %w", err))
	}
	if o.Output != "" {
		// The report went to a file: say in the log what it holds.
		fmt.Fprintf(stderr, "review: wrote %s report to %s: %s", o.Format, o.Output, report.ClosingLine(rep))
	}
	if rep.Empty() && !o.AllowEmpty {
		// A CI job given the wrong path must not pass: the closing line said what the review reads.
		fmt.Fprintln(stderr, "review: "+report.NoInputHint+" (--allow-empty to accept)")
		return ExitUsage
	}
	if rep.Fails(o.FailOnThreshold()) {
		return ExitFindings
	}
	return ExitClean
}

// newFlags is the review command's flag set.
func newFlags() *cliOptions {
	o := &cliOptions{Command: clitool.New("review", usageHead, usageTail, "text", "json", "sarif")}
	fs := o.Flags
	fs.StringVar(&o.color, "color", "auto", "colour the text report: auto (when standard output is a terminal and NO_COLOR is unset), always or never")
	fs.BoolVar(&o.limits.AllowOutsideRoot, "allow-outside-root", false, "read files outside the reviewed tree (the working directory, the config file's directory and the paths given) that .. or symlinks lead to")
	fs.Int64Var(&o.limits.MaxFileBytes, "max-file-bytes", source.DefaultMaxFileBytes, "read at most this many bytes of each file (KRP012 for a larger one)")
	fs.Int64Var(&o.limits.MaxTotalBytes, "max-total-bytes", source.DefaultMaxTotalBytes, "read at most this many bytes of all inputs together (KRP012 for the files beyond)")
	fs.BoolVar(&o.allowTemplates, "allow-templates", false, "report unrendered templates (KRP006) as notes, so that they do not count against --fail-on")
	fs.Func("workloads", "read workloads (Deployments, Jobs, ...) from this path and add each cluster's predicted hourly cost: workloads the config maps to a cluster count there, the others in every cluster (repeatable; \"-\" is standard input)", func(s string) error {
		o.workloads = append(o.workloads, s)
		return nil
	})
	fs.BoolVar(&o.hpaMax, "hpa-max", false, "with --workloads: count workloads an HPA scales at its maxReplicas (the cost at peak)")
	fs.BoolVar(&o.steady, "steady-state", false, "with --workloads: also run Karpenter on a simulated clock to its steady state (provisioning rounds, then emptiness, drift and consolidation, "+
		"emulated; at most 24h) and report its nodes, cost and disruptions as simulate does; KRP118 is then judged on the steady state, not the first round. "+
		"It costs time: a consolidation pass re-runs Karpenter's scheduler per candidate node, and the advice re-runs it per edit tried")
	fs.IntVar(&o.maxPods, "max-pods", simulation.MaxPods, "with --workloads: cost a cluster of at most this many pods (Kubernetes' documented limit); past it, KRP306")
	fs.IntVar(&o.maxNodes, "max-nodes", simulation.MaxNodes, "with --workloads: cost a cluster whose pods need at most this many nodes (Kubernetes' and AKS's limit); past it, KRP306")
	fs.StringVar(&o.baseline, "baseline", "", "a second checkout (e.g. of the target branch): its costs for the same relative paths are compared, per pool")
	o.Check(func() error {
		switch o.color {
		case "auto", "always", "never":
		default:
			return fmt.Errorf("unknown --color %q (want auto, always or never)", o.color)
		}
		if o.limits.MaxFileBytes <= 0 || o.limits.MaxTotalBytes <= 0 {
			return errors.New("--max-file-bytes and --max-total-bytes must be positive")
		}
		if o.steady && len(o.workloads) == 0 && o.baseline == "" {
			return errors.New("--steady-state runs the costs of --workloads on to Karpenter's steady state: give --workloads")
		}
		return clitool.StdinOnce(o.Paths, o.workloads)
	})
	return o
}

// useColor decides colour: always, never, or on a terminal unless NO_COLOR or TERM=dumb.
func useColor(mode string, w io.Writer) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
