package clitool

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Command is one command's flag set and usage text, with the flags every command takes.
type Command struct {
	Name  string // "review", "simulate"
	Flags *flag.FlagSet
	Common
	head, tail string
	formats    []string
	checks     []func() error
}

// Common are the flags of both commands.
type Common struct {
	Format, Region, Output, FailOn, Config string
	Strict, AllowEmpty, ListCodes, Version bool
	Suppress                               []findings.Code
	// HelmValues, HelmSet and NoHelm say how to render the Helm charts met.
	HelmValues, HelmSet []string
	NoHelm              bool
	// Paths are the arguments that are not flags.
	Paths []string
}

// New makes a command whose usage is head, the flags, then tail; formats are the report
// formats it writes, the first the default.
func New(name, head, tail string, formats ...string) *Command {
	c := &Command{Name: name, Flags: flag.NewFlagSet(name, flag.ContinueOnError), head: head, tail: tail, formats: formats}
	fs := c.Flags
	// The flag package prints a mistake and then the whole usage; Parse says it in one line instead.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	fs.StringVar(&c.Format, "format", formats[0], "report format: "+orList(formats))
	fs.StringVar(&c.Output, "output", "", "write the report to this file instead of standard output")
	fs.StringVar(&c.FailOn, "fail-on", "error", "exit with 1 when a finding of this severity or higher remains: warning or error")
	fs.BoolVar(&c.Strict, "strict", false, "report warnings as errors")
	fs.StringVar(&c.Region, "region", "", "region of clusters whose config file or plan names none: Azure (e.g. westeurope) or, for EKS pools, AWS (e.g. us-east-1)")
	fs.Func("suppress", "drop findings of these codes, e.g. KRP104 or KRP104,KRP202 (repeatable; the config file's suppress lists apply too)", func(s string) error {
		codes, err := findings.ParseCodes(s)
		c.Suppress = append(c.Suppress, codes...)
		return err
	})
	fs.StringVar(&c.Config, "config", "", "config file (default: .karpenter-review.yaml upward from the first path)")
	fs.BoolVar(&c.AllowEmpty, "allow-empty", false, "exit with 0 when the inputs hold nothing to review or simulate (by default a run on the wrong paths, say a directory of .tf files, is a usage error: exit 2)")
	fs.Func("helm-values", "values file for the Helm charts met (directories with a Chart.yaml), as helm template -f (repeatable; later files win)", func(s string) error {
		c.HelmValues = append(c.HelmValues, s)
		return nil
	})
	fs.Func("helm-set", "value for the Helm charts met, as helm template --set, e.g. pool.cpu=64 (repeatable; applied after --helm-values)", func(s string) error {
		c.HelmSet = append(c.HelmSet, s)
		return nil
	})
	fs.BoolVar(&c.NoHelm, "no-helm", false, "do not render Helm charts: read their files as they are (templates are KRP006); rendering runs the chart's template code, which an untrusted tree can make arbitrarily expensive")
	fs.BoolVar(&c.ListCodes, "list-codes", false, "list the finding codes with their severity and title, and exit")
	fs.BoolVar(&c.Version, "version", false, "print the version and the dates of the embedded price snapshots, and exit")
	return c
}

// Check adds a check of the parsed flags, run by Start after the common ones.
func (c *Command) Check(check func() error) { c.checks = append(c.checks, check) }

// Usage writes the command's usage: head, flags, tail.
func (c *Command) Usage(w io.Writer) {
	fmt.Fprint(w, c.head)
	c.Flags.SetOutput(w)
	c.Flags.PrintDefaults()
	c.Flags.SetOutput(io.Discard)
	fmt.Fprint(w, c.tail)
}

// Start parses args and ends the command when that is all it has to do: -h (the usage on
// stderr), a usage error (one line), --list-codes, --version. It returns done and the exit
// code then; otherwise the command goes on with c.Common and its own flags set.
func (c *Command) Start(args []string, stdout, stderr io.Writer, version string) (code int, done bool) {
	err := c.parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.Usage(stderr)
		return ExitClean, true
	case err != nil:
		return c.usageError(stderr, err), true
	case c.ListCodes:
		WriteCodes(stdout)
		return ExitClean, true
	case c.Version:
		WriteVersion(stdout, version)
		return ExitClean, true
	}
	return 0, false
}

func (c *Command) parse(args []string) error {
	paths, err := parseInterspersed(c.Flags, args)
	if err != nil {
		return c.explain(err)
	}
	c.Paths = paths
	if !slices.Contains(c.formats, c.Format) {
		return fmt.Errorf("unknown --format %q (want %s)", c.Format, orList(c.formats))
	}
	if c.FailOn != "warning" && c.FailOn != "error" {
		return fmt.Errorf("unknown --fail-on %q (want warning or error)", c.FailOn)
	}
	for _, check := range c.checks {
		if err := check(); err != nil {
			return err
		}
	}
	return StdinOnce(c.Paths)
}

// undefinedFlag is how the flag package words a flag it does not know.
const undefinedFlag = "flag provided but not defined: -"

// explain rewords the flag package's errors: an unknown flag with the nearest known one.
func (c *Command) explain(err error) error {
	name, ok := strings.CutPrefix(err.Error(), undefinedFlag)
	if !ok {
		return err
	}
	var names []string
	c.Flags.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if near := Nearest(name, names); near != "" {
		return fmt.Errorf("unknown flag -%s (did you mean --%s?)", name, near)
	}
	return fmt.Errorf("unknown flag -%s", name)
}

// usageError says in one line what was wrong with the command line and where the usage is,
// and returns ExitUsage.
func (c *Command) usageError(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "%s: %s; run '%s %s -h' for usage\n", c.Name, EscapeText(err.Error()), Binary, c.Name)
	return ExitUsage
}

// Fail reports an error that ends the command (an unreadable input, a bad config file), each
// of the errors joined in it on a line of its own, and returns ExitUsage.
func (c *Command) Fail(stderr io.Writer, err error) int {
	for _, e := range leaves(err) {
		fmt.Fprintf(stderr, "%s: %s\n", c.Name, EscapeText(e.Error()))
	}
	return ExitUsage
}

// leaves are the errors joined in err (errors.Join), depth first, through wrappers that add
// no words of their own; err itself when none are joined.
func leaves(err error) []error {
	for u := errors.Unwrap(err); u != nil && u.Error() == err.Error(); u = errors.Unwrap(err) {
		err = u
	}
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, leaves(e)...)
	}
	return out
}

// FailOnThreshold is the severity --fail-on names.
func (c *Command) FailOnThreshold() findings.Severity {
	s, _ := findings.ParseSeverity(c.FailOn)
	return s
}

// StdinOnce fails when standard input ("-") is named more than once over the lists.
func StdinOnce(lists ...[]string) error {
	n := 0
	for _, l := range lists {
		for _, p := range l {
			if p == "-" {
				n++
			}
		}
	}
	if n > 1 {
		return errors.New(`standard input ("-") can be read only once`)
	}
	return nil
}

// parseInterspersed parses flags that may follow paths (review clusters/ --format sarif) and
// returns the paths: the flag package stops at the first path, so it parses again after each
// one. After "--" everything is a path.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
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

func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}
