package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"sigs.k8s.io/yaml"
)

var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// binary builds terraform-provider-karpenter once per test run and returns the directory it
// is in, to put on PATH as the action and the hooks expect.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the provider: not in -short")
	}
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "karpenter-bin")
		if binErr == nil {
			// The release build's flags, so that the two tests share the compiled packages.
			cmd := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(binDir, "terraform-provider-karpenter"), ".")
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			out, err := cmd.CombinedOutput()
			if err != nil {
				binErr = &buildError{err, out}
			}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binDir
}

// TestMain removes the binary built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + string(e.out) }

type actionFile struct {
	Inputs map[string]struct {
		Default  string `json:"default"`
		Required bool   `json:"required"`
	} `json:"inputs"`
	Runs struct {
		Using string `json:"using"`
		Steps []struct {
			ID    string            `json:"id"`
			If    string            `json:"if"`
			Uses  string            `json:"uses"`
			Shell string            `json:"shell"`
			Run   string            `json:"run"`
			Env   map[string]string `json:"env"`
			With  map[string]string `json:"with"`
		} `json:"steps"`
	} `json:"runs"`
}

var expression = regexp.MustCompile(`^\$\{\{\s*(inputs|steps)\.([A-Za-z0-9_-]+)(?:\.outputs\.([A-Za-z0-9_-]+))?\s*\}\}$`)

// TestActionRunsReviewAndSimulate parses action.yml and runs its shell steps as a runner would
// (bash -eo pipefail, inputs through env, GITHUB_OUTPUT per step) on examples/simulate/wide,
// with a baseline checkout whose pool admits larger sizes: the comment must carry the
// simulation's Markdown and the cost with its delta, and the SARIF must be SARIF.
func TestActionRunsReviewAndSimulate(t *testing.T) {
	raw, err := os.ReadFile("action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(raw, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" || !a.Inputs["pools"].Required {
		t.Fatalf("action.yml: runs.using %q, pools required %v", a.Runs.Using, a.Inputs["pools"].Required)
	}
	bin := binary(t)

	const ex = "examples/simulate/wide"
	baseline := filepath.Join(t.TempDir(), "base")
	for _, f := range []string{"nodeclass.yaml", "nodepool.yaml", "workloads.yaml"} {
		b, err := os.ReadFile(filepath.Join(ex, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(baseline, ex), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(baseline, ex, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inputs := map[string]string{}
	for name, in := range a.Inputs {
		inputs[name] = in.Default
	}
	inputs["pools"] = ex + "/nodepool.yaml " + ex + "/nodeclass.yaml"
	inputs["workloads"] = ex + "/workloads.yaml"
	inputs["region"] = "westeurope"
	inputs["baseline-path"] = baseline

	runner := t.TempDir()
	summary := filepath.Join(runner, "summary.md")
	outputs := map[string]map[string]string{}
	ran := map[string]bool{}
	for _, s := range a.Runs.Steps {
		if s.Run == "" {
			// The uses: steps (setup-go, SARIF upload, checkout, sticky comment) are GitHub's;
			// their inputs must at least resolve to what the shell steps wrote.
			for k, v := range s.With {
				if strings.Contains(v, "steps.") && resolve(t, v, inputs, outputs) == "" {
					t.Errorf("step %s: with.%s = %s resolves to nothing", s.Uses, k, v)
				}
			}
			continue
		}
		if s.ID == "install" {
			if !strings.Contains(s.Run, "go build") {
				t.Errorf("the install step does not build the binary: %s", s.Run)
			}
			continue // the test built it already
		}
		if s.Shell != "bash" {
			t.Errorf("step %s: shell %q, want bash", s.ID, s.Shell)
		}
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %s: an expression inside the script (inputs must come through env)", s.ID)
		}
		if s.If == "${{ inputs.workloads != '' }}" && inputs["workloads"] == "" {
			continue
		}
		out := filepath.Join(runner, s.ID+".out")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"RUNNER_TEMP="+runner, "GITHUB_OUTPUT="+out, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_ACTION_PATH=.")
		for k, v := range s.Env {
			cmd.Env = append(cmd.Env, k+"="+resolve(t, v, inputs, outputs))
		}
		combined, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("step %s: %v\n%s", s.ID, err, combined)
		}
		outputs[s.ID] = readOutputs(t, out)
		ran[s.ID] = true
	}
	for _, id := range []string{"review", "simulate", "cost", "verdict"} {
		if !ran[id] {
			t.Errorf("step %s did not run", id)
		}
	}
	if outputs["review"]["exit-code"] != "0" {
		t.Errorf("review exit code %q on the example (warnings only)", outputs["review"]["exit-code"])
	}
	sarif, _ := os.ReadFile(outputs["review"]["sarif"])
	if !strings.Contains(string(sarif), `"version": "2.1.0"`) || !strings.Contains(string(sarif), "KRP119") {
		t.Errorf("SARIF lacks the version or the example's KRP119:\n%.400s", sarif)
	}
	comment, _ := os.ReadFile(outputs["cost"]["comment"])
	md, _ := os.ReadFile(summary)
	// "baseline USD …, change USD …" is review's own line for a cost against a baseline.
	for _, want := range []string{"Against the target branch", "baseline USD", "change USD", string(md)} {
		if len(md) == 0 || !strings.Contains(string(comment), want) {
			t.Errorf("the comment lacks %.80q:\n%s", want, comment)
		}
	}
	if !strings.Contains(string(md), "|") {
		t.Errorf("the job summary is not the simulation's Markdown table:\n%s", md)
	}
}

// resolve evaluates the expressions the action uses in env and with: an input or a step output.
func resolve(t *testing.T, v string, inputs map[string]string, outputs map[string]map[string]string) string {
	t.Helper()
	if !strings.Contains(v, "${{") {
		return v
	}
	m := expression.FindStringSubmatch(v)
	if m == nil {
		if strings.HasPrefix(strings.TrimSpace(v), "${{ github.") {
			return "github"
		}
		t.Fatalf("expression %s: the test evaluates inputs.X and steps.X.outputs.Y only", v)
	}
	if m[1] == "inputs" {
		if _, ok := inputs[m[2]]; !ok {
			t.Fatalf("%s: no such input", v)
		}
		return inputs[m[2]]
	}
	return outputs[m[2]][m[3]]
}

func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return out
	} else if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			out[k] = v
		}
	}
	return out
}

// TestPreCommitHooksRun parses .pre-commit-hooks.yaml and runs each hook's entry with its
// args as pre-commit would (no file names), in examples/simulate/wide.
func TestPreCommitHooksRun(t *testing.T) {
	raw, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string   `json:"id"`
		Entry         string   `json:"entry"`
		Language      string   `json:"language"`
		Files         string   `json:"files"`
		PassFilenames *bool    `json:"pass_filenames"`
		Args          []string `json:"args"`
	}
	if err := yaml.Unmarshal(raw, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	bin := binary(t)
	seen := map[string]bool{}
	for _, h := range hooks {
		seen[h.ID] = true
		if h.Language != "golang" || h.PassFilenames == nil || *h.PassFilenames {
			t.Errorf("hook %s: language %q, pass_filenames %v", h.ID, h.Language, h.PassFilenames)
		}
		if _, err := regexp.Compile(h.Files); err != nil || !regexp.MustCompile(h.Files).MatchString("nodepool.yaml") {
			t.Errorf("hook %s: files %q does not match nodepool.yaml (%v)", h.ID, h.Files, err)
		}
		argv := append(strings.Fields(h.Entry), h.Args...)
		if argv[0] != "terraform-provider-karpenter" {
			t.Fatalf("hook %s: entry %q is not the provider binary", h.ID, h.Entry)
		}
		// The example names no region: given after the subcommand, before the hook's own args.
		cmd := exec.Command(filepath.Join(bin, argv[0]), append([]string{argv[1], "--region", "westeurope"}, argv[2:]...)...)
		cmd.Dir = "examples/simulate/wide"
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("hook %s (%s): %v\n%s", h.ID, strings.Join(argv, " "), err, out)
		}
		if want := map[string]string{"karpenter-review": "KRP119", "karpenter-simulate": "USD"}[h.ID]; !strings.Contains(string(out), want) {
			t.Errorf("hook %s: output lacks %s:\n%s", h.ID, want, out)
		}
	}
	if !seen["karpenter-review"] || !seen["karpenter-simulate"] {
		t.Errorf("hooks %v; want karpenter-review and karpenter-simulate", seen)
	}
}
