package report

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// ANSI styles; used only when the caller decided the output is a terminal (or was told to).
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiDim    = "\x1b[2m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiGreen  = "\x1b[32m"
)

type styler bool

func (s styler) paint(style, text string) string {
	if !s || text == "" {
		return text
	}
	return style + text + ansiReset
}

func (s styler) severity(sev findings.Severity) string {
	switch sev {
	case findings.Error:
		return s.paint(ansiBold+ansiRed, sev.String())
	case findings.Warning:
		return s.paint(ansiBold+ansiYellow, sev.String())
	}
	return s.paint(ansiCyan, sev.String())
}

// WriteText renders the report for people: one block per finding (place, severity, code,
// object and message; then the field and the fix), what was skipped, a summary per NodePool
// and a closing count.
func WriteText(w io.Writer, r *Report, color bool) error {
	s := styler(color)
	var b strings.Builder
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "%s: %s %s", s.paint(ansiBold, EscapePath(PlaceOf(f.Location))), s.severity(f.Severity()), f.Code)
		if f.Object != "" {
			fmt.Fprintf(&b, " %s", EscapeText(f.Object))
		}
		fmt.Fprintf(&b, ": %s\n", EscapeText(f.Message))
		var where []string
		if f.Field != "" {
			where = append(where, "field "+f.Field)
		}
		if f.Attribute != "" {
			where = append(where, "attribute "+f.Attribute)
		}
		if f.Cluster != "" {
			where = append(where, "cluster "+f.Cluster)
		}
		for _, rel := range f.Related {
			where = append(where, "see "+PlaceOf(rel))
		}
		if len(where) > 0 {
			fmt.Fprintf(&b, "    %s\n", s.paint(ansiDim, EscapeText(strings.Join(where, " · "))))
		}
		if f.Fix != "" {
			fmt.Fprintf(&b, "    %s %s\n", s.paint(ansiGreen, "fix:"), EscapeText(f.Fix))
		}
	}
	if len(r.Findings) > 0 {
		b.WriteString("\n")
	}
	for _, sk := range r.Skipped {
		fmt.Fprintf(&b, "%s %s: %s\n", s.paint(ansiDim, "skipped"), EscapeText(PlaceOf(source.Location{File: sk.File, Line: sk.Line})), EscapeText(sk.Reason))
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\n")
	}
	writePools(&b, r, s)
	writeFleet(&b, r, s)
	b.WriteString(ClosingLine(r))
	_, err := io.WriteString(w, b.String())
	return err
}

func writePools(b *strings.Builder, r *Report, s styler) {
	if len(r.Pools) == 0 {
		return
	}
	b.WriteString(s.paint(ansiBold, "NodePools") + "\n")
	for _, c := range r.Clusters {
		var pools []checks.PoolSummary
		for _, p := range r.Pools {
			if p.Cluster == c.Name {
				pools = append(pools, p)
			}
		}
		if len(pools) == 0 {
			continue
		}
		region := "region " + c.Region
		if c.Region == "" {
			region = "no region given"
		}
		fmt.Fprintf(b, "  cluster %s · %s\n", EscapeText(assemble.ClusterLabel(c.Name)), EscapeText(region))
		for _, p := range pools {
			var counts []string
			if p.Errors > 0 {
				counts = append(counts, s.paint(ansiRed, clitool.Plural(p.Errors, "error")))
			}
			if p.Warnings > 0 {
				counts = append(counts, s.paint(ansiYellow, clitool.Plural(p.Warnings, "warning")))
			}
			status := s.paint(ansiGreen, "ok")
			if len(counts) > 0 {
				status = strings.Join(counts, ", ")
			}
			fmt.Fprintf(b, "    %s  %s  %s\n", s.paint(ansiBold, EscapeLead(p.Name)), EscapeText(PlaceOf(p.Location)), status)
			var facts []string
			for _, f := range p.Facts {
				facts = append(facts, f.Name+" "+f.Value)
			}
			if len(facts) > 0 {
				fmt.Fprintf(b, "      %s\n", s.paint(ansiDim, EscapeText(strings.Join(facts, " · "))))
			}
		}
	}
	b.WriteString("\n")
}

func ClosingLine(r *Report) string {
	pools, classes, ec2 := 0, 0, 0
	for _, c := range r.Clusters {
		pools += c.NodePools
		classes += c.NodeClasses - c.EC2NodeClasses
		ec2 += c.EC2NodeClasses
	}
	counts := fmt.Sprintf("%s, %s, %s", clitool.Plural(r.Count(findings.Error), "error"), clitool.Plural(r.Count(findings.Warning), "warning"), clitool.Plural(r.Count(findings.Note), "note"))
	if r.Suppressed > 0 {
		counts += fmt.Sprintf(" (%d suppressed)", r.Suppressed)
	}
	line := fmt.Sprintf("%s in %s: %s, %s, %s\n", counts, clitool.Plural(r.Files, "file"), clitool.Plural(len(r.Clusters), "cluster"),
		clitool.PluralWord(pools, "NodePool", "NodePools"), checks.NodeClassCounts(classes, ec2))
	if r.Empty() {
		// A run on the wrong paths (a Terraform configuration's directory) must not look clean.
		line += NoInputHint + "\n"
	}
	return line
}

// NoInputHint is said when a review had nothing to review.
const NoInputHint = "nothing reviewed: no NodePool or node class in the inputs (the review reads YAML and JSON manifests, Kustomize overlays, " +
	"Helm charts and `terraform show -json` plans, not Terraform .tf files)"

// PlaceOf renders a location as editors and CI logs link it: file:line:column, then the
// Terraform address for plans.
func PlaceOf(l source.Location) string {
	p := l.File
	if l.Line > 0 {
		p += ":" + strconv.Itoa(l.Line)
		if l.Column > 0 {
			p += ":" + strconv.Itoa(l.Column)
		}
	}
	if l.Address != "" {
		p += ": " + l.Address
	}
	return p
}
