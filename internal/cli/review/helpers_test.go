package review

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/report"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
)

// result is one run of the command, in-process, exactly as main runs it.
type result struct {
	stdout, stderr string
	code           int
}

func run(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	var in io.Reader = strings.NewReader(stdin)
	code := Main(context.Background(), args, in, &out, &errb, "test")
	return result{out.String(), errb.String(), code}
}

// jsonOut is the JSON report as a consumer reads it.
type jsonOut struct {
	Version int `json:"version"`
	Summary struct {
		Errors, Warnings, Notes int
	} `json:"summary"`
	Rules []struct {
		Code string `json:"code"`
	} `json:"rules"`
	Config   string `json:"config"`
	Files    int    `json:"files"`
	Clusters []struct {
		Name        string `json:"name"`
		Region      string `json:"region"`
		NodePools   int    `json:"nodePools"`
		NodeClasses int    `json:"nodeClasses"`
	} `json:"clusters"`
	Pools []struct {
		Cluster, Region, Name string
		Location              source.Location
		Facts                 []checks.Fact
		Errors, Warnings      int
	} `json:"pools"`
	Findings []struct {
		Code, Severity, Message, Fix, Object, Cluster string
		source.Location
		Related []source.Location
	} `json:"findings"`
	Skipped            []assemble.Skipped `json:"skipped"`
	Suppressed         int                `json:"suppressed"`
	SuppressedFindings []struct {
		Code, Object, Cluster string
		source.Location
	} `json:"suppressedFindings"`
}

func runJSON(t *testing.T, stdin string, wantCode int, args ...string) jsonOut {
	t.Helper()
	r := run(t, stdin, append([]string{"--format", "json"}, args...)...)
	if r.code != wantCode {
		t.Fatalf("exit code %d, want %d\nstderr: %s\nstdout: %s", r.code, wantCode, r.stderr, r.stdout)
	}
	var out jsonOut
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, r.stdout)
	}
	return out
}

// brief renders findings one per line as "file:line:col CODE object field [cluster]", the
// form the tests compare, sorted.
func (o jsonOut) brief() []string {
	var out []string
	for _, f := range o.Findings {
		s := fmt.Sprintf("%s %s %s", report.PlaceOf(f.Location), f.Code, f.Object)
		if f.Field != "" {
			s += " " + f.Field
		}
		if f.Attribute != "" {
			s += " (" + f.Attribute + ")"
		}
		if f.Cluster != "" {
			s += " [" + f.Cluster + "]"
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
