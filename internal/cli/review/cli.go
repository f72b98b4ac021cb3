package review

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// Exit codes of the review command.
const (
	ExitClean    = 0 // no finding reaches --fail-on
	ExitFindings = 1 // findings reach --fail-on
	ExitUsage    = 2 // bad flags, bad config, or an input that cannot be read at all
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
config file or an input that cannot be read at all.
`

// reviewMemoryLimit is the review command's soft memory limit.
const reviewMemoryLimit = 256 << 20

// ParseInterspersed parses flags that may follow paths (review clusters/ --format sarif) and
// returns the paths: the flag package stops at the first path, so it parses again after each
// one. After "--" everything is a path.
func ParseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var paths []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return paths, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(paths, rest...), nil
		}
		paths = append(paths, rest[0])
		args = rest[1:]
	}
}

// WriteOutput writes a report to stdout, or to the file output names: a failure to create,
// write or close the file is the error.
func WriteOutput(stdout io.Writer, output string, write func(io.Writer) error) error {
	if output == "" {
		return write(stdout)
	}
	f, err := os.Create(output)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// EscapeText makes text from the input safe to print on a terminal or a CI log (see escapeText).
func EscapeText(s string) string { return escapeText(s) }

// cliOptions are the parsed flags.
type cliOptions struct {
	format, output, color, failOn, region, config string
	strict, listCodes, version, allowTemplates    bool
	limits                                        Limits
	suppress                                      []findings.Code
	paths                                         []string
	// workloads and baseline ask for predicted costs (cost.go).
	workloads []string
	baseline  string
	// helm renders the charts met (helm.go).
	helm   HelmOptions
	hpaMax bool
	// maxPods and maxNodes: with --workloads, the caps of a cluster's simulation.
	maxPods, maxNodes int
}

// Main runs the review command with the arguments after "review" and returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, version string) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return ExitClean
	}
	if err != nil {
		fmt.Fprintf(stderr, "review: %v\nRun 'terraform-provider-karpenter review -h' for usage.\n", err)
		return ExitUsage
	}
	if o.listCodes {
		writeCodes(stdout)
		return ExitClean
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// What a review keeps is small (about 12 KB a NodePool), but validating each object
		// leaves garbage that the collector, left to its default pace, lets grow to several
		// times that on a CI runner other jobs share. A soft limit makes it collect sooner;
		// it never fails the review (GOMEMLIMIT overrides it).
		debug.SetMemoryLimit(reviewMemoryLimit)
	}
	if o.version {
		WriteVersion(stdout, version)
		return ExitClean
	}
	threshold, _ := findings.ParseSeverity(o.failOn)
	opts := Options{Paths: o.paths, Stdin: stdin, ConfigPath: o.config, Region: o.region, Strict: o.strict, Suppress: o.suppress, Limits: o.limits, AllowTemplates: o.allowTemplates, Helm: o.helm}
	var rep *Report
	if len(o.workloads) > 0 || o.baseline != "" {
		rep, err = ReviewWithCosts(ctx, opts, CostOptions{Workloads: o.workloads, Baseline: o.baseline, HPAMaxReplicas: o.hpaMax, MaxPods: o.maxPods, MaxNodes: o.maxNodes})
	} else {
		rep, err = Review(ctx, opts)
	}
	if err != nil {
		fmt.Fprintf(stderr, "review: %s\n", escapeText(err.Error()))
		return ExitUsage
	}
	err = WriteOutput(stdout, o.output, func(out io.Writer) error {
		switch o.format {
		case "json":
			return WriteJSON(out, rep, version)
		case "sarif":
			return WriteSARIF(out, rep, version)
		}
		if err := WriteText(out, rep, useColor(o.color, out)); err != nil || len(rep.Costs) == 0 {
			return err
		}
		return writeCostsText(out, rep.Costs)
	})
	if err != nil {
		fmt.Fprintf(stderr, "review: writing the report: %s\n", escapeText(err.Error()))
		return ExitUsage
	}
	if o.output != "" {
		// The report went to a file: say in the log what it holds.
		fmt.Fprintf(stderr, "review: wrote %s report to %s: %s", o.format, o.output, closingLine(rep))
	}
	if rep.Fails(threshold) {
		return ExitFindings
	}
	return ExitClean
}

func parseFlags(args []string, stderr io.Writer) (*cliOptions, error) {
	o := &cliOptions{}
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.format, "format", "text", "report format: text, json or sarif")
	fs.StringVar(&o.output, "output", "", "write the report to this file instead of standard output")
	fs.StringVar(&o.color, "color", "auto", "colour the text report: auto (when standard output is a terminal and NO_COLOR is unset), always or never")
	fs.StringVar(&o.failOn, "fail-on", "error", "exit with 1 when a finding of this severity or higher remains: warning or error")
	fs.BoolVar(&o.strict, "strict", false, "report warnings as errors")
	fs.StringVar(&o.region, "region", "", "region of clusters whose config file or plan names none: Azure (e.g. westeurope) or, for EKS pools, AWS (e.g. us-east-1)")
	fs.Func("suppress", "drop findings of these codes, e.g. KRP104 or KRP104,KRP202 (repeatable)", func(s string) error {
		codes, err := findings.ParseCodes(s)
		o.suppress = append(o.suppress, codes...)
		return err
	})
	fs.StringVar(&o.config, "config", "", "config file (default: .karpenter-review.yaml upward from the first path)")
	fs.BoolVar(&o.limits.AllowOutsideRoot, "allow-outside-root", false, "read files outside the reviewed tree (the working directory, the config file's directory and the paths given) that .. or symlinks lead to")
	fs.Int64Var(&o.limits.MaxFileBytes, "max-file-bytes", DefaultMaxFileBytes, "read at most this many bytes of each file (KRP012 for a larger one)")
	fs.Int64Var(&o.limits.MaxTotalBytes, "max-total-bytes", DefaultMaxTotalBytes, "read at most this many bytes of all inputs together (KRP012 for the files beyond)")
	fs.BoolVar(&o.allowTemplates, "allow-templates", false, "report unrendered templates (KRP006) as notes, so that they do not count against --fail-on")
	fs.Func("helm-values", "values file for the Helm charts met (directories with a Chart.yaml), as helm template -f (repeatable; later files win)", func(s string) error {
		o.helm.ValuesFiles = append(o.helm.ValuesFiles, s)
		return nil
	})
	fs.BoolVar(&o.helm.Off, "no-helm", false, "do not render Helm charts: read their files as they are (templates are KRP006); rendering runs the chart's template code, which an untrusted tree can make arbitrarily expensive")
	fs.Func("helm-set", "value for the Helm charts met, as helm template --set, e.g. pool.cpu=64 (repeatable; applied after --helm-values)", func(s string) error {
		o.helm.Set = append(o.helm.Set, s)
		return nil
	})
	fs.BoolVar(&o.listCodes, "list-codes", false, "list the finding codes with their severity and title, and exit")
	fs.BoolVar(&o.version, "version", false, "print the version and the dates of the embedded price snapshots, and exit")
	fs.Func("workloads", "read workloads (Deployments, Jobs, ...) from this path and add each cluster's predicted hourly cost: workloads the config maps to a cluster count there, the others in every cluster (repeatable; \"-\" is standard input)", func(s string) error {
		o.workloads = append(o.workloads, s)
		return nil
	})
	fs.BoolVar(&o.hpaMax, "hpa-max", false, "with --workloads: count workloads an HPA scales at its maxReplicas (the cost at peak)")
	fs.IntVar(&o.maxPods, "max-pods", simulation.MaxPods, "with --workloads: cost a cluster of at most this many pods (Kubernetes' documented limit); past it, KRP306")
	fs.IntVar(&o.maxNodes, "max-nodes", simulation.MaxNodes, "with --workloads: cost a cluster whose pods need at most this many nodes (Kubernetes' and AKS's limit); past it, KRP306")
	fs.StringVar(&o.baseline, "baseline", "", "a second checkout (e.g. of the target branch): its costs for the same relative paths are compared, per pool")
	fs.Usage = func() {
		fmt.Fprint(stderr, usageHead)
		fs.PrintDefaults()
		fmt.Fprint(stderr, usageTail)
	}
	var err error
	if o.paths, err = ParseInterspersed(fs, args); err != nil {
		return nil, err
	}
	switch o.format {
	case "text", "json", "sarif":
	default:
		return nil, fmt.Errorf("unknown --format %q (want text, json or sarif)", o.format)
	}
	switch o.color {
	case "auto", "always", "never":
	default:
		return nil, fmt.Errorf("unknown --color %q (want auto, always or never)", o.color)
	}
	if o.failOn != "warning" && o.failOn != "error" {
		return nil, fmt.Errorf("unknown --fail-on %q (want warning or error)", o.failOn)
	}
	if o.limits.MaxFileBytes <= 0 || o.limits.MaxTotalBytes <= 0 {
		return nil, errors.New("--max-file-bytes and --max-total-bytes must be positive")
	}
	stdins := 0
	for _, p := range append(slices.Clone(o.paths), o.workloads...) {
		if p == "-" {
			stdins++
		}
	}
	if stdins > 1 {
		return nil, errors.New(`standard input ("-") can be read only once`)
	}
	return o, nil
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

func writeCodes(w io.Writer) {
	var b strings.Builder
	for _, r := range findings.All() {
		fmt.Fprintf(&b, "%s  %-7s  %-22s  %s\n", r.Code, r.Severity, r.Name, r.Title)
	}
	_, _ = io.WriteString(w, b.String())
}
