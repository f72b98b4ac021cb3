package provider_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Issue 31 item 10: every example plans on its own, as a user copies it: each directory under
// examples/ with .tf files is copied alone (with its YAML files) and planned with the real
// terraform binary and this provider, built from this checkout and installed through
// dev_overrides for the source address the examples declare. An example without
// required_providers resolves to hashicorp/karpenter, which nothing provides, and fails.
// Planning creates needs no cluster: the provider connects only on apply or refresh.
func TestAccExamplesPlanOnTheirOwn(t *testing.T) {
	tf := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if os.Getenv("TF_ACC") == "" || tf == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("TF_ACC and TF_ACC_TERRAFORM_PATH unset: under CI=true the examples must be planned (make test sets them)")
		}
		t.Skip("TF_ACC and TF_ACC_TERRAFORM_PATH unset (make test sets them)")
	}
	clearConnectionEnv(t)
	root := filepath.Join("..", "..")
	dirs := exampleDirs(t, filepath.Join(root, "examples"))
	if len(dirs) < 20 {
		t.Fatalf("found %d example directories: the walk is wrong", len(dirs))
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-karpenter"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	rc := filepath.Join(bin, "cli.tfrc")
	// The short source address, which terraform and OpenTofu both expand to their registry.
	if err := os.WriteFile(rc, fmt.Appendf(nil, "provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", "karpenter-iac/karpenter", bin), 0o644); err != nil {
		t.Fatal(err)
	}
	kubeconfig := filepath.Join(bin, "kubeconfig")
	if err := os.WriteFile(kubeconfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// Examples of OpenTofu's own language (provider for_each), planned only by OpenTofu.
	openTofuOnly := map[string]bool{"scenarios/multi-cluster-opentofu": true}
	// Values for the variables an example declares without a default.
	vars := map[string]string{"kubeconfig_path": kubeconfig}
	env := []string{"TF_CLI_CONFIG_FILE=" + rc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0"}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "TF_") {
			env = append(env, e)
		}
	}
	for _, dir := range dirs {
		rel, _ := filepath.Rel(filepath.Join(root, "examples"), dir)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			if openTofuOnly[filepath.ToSlash(rel)] && filepath.Base(tf) != "tofu" {
				t.Skip("written for OpenTofu (provider for_each); " + tf + " is not OpenTofu")
			}
			t.Parallel()
			work := t.TempDir()
			if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			args := []string{"plan", "-input=false", "-lock=false", "-refresh=false", "-no-color"}
			for _, v := range requiredVariables(t, work) {
				val, ok := vars[v]
				if !ok {
					t.Fatalf("variable %q has no default and the test has no value for it", v)
				}
				args = append(args, "-var", v+"="+val)
			}
			cmd := exec.Command(tf, args...)
			cmd.Dir, cmd.Env = work, env
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("terraform plan of examples/%s: %v\n%s", rel, err, out.String())
			}
			if strings.Contains(out.String(), "hashicorp/karpenter") {
				t.Errorf("examples/%s resolves hashicorp/karpenter:\n%s", rel, out.String())
			}
		})
	}
}

// exampleDirs are the directories under dir that hold .tf files, sorted.
func exampleDirs(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".tf" {
			return err
		}
		if p := filepath.Dir(path); !slices.Contains(out, p) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

var variableBlock = regexp.MustCompile(`(?ms)^variable "([^"]+)" \{(.*?)^\}`)

// requiredVariables are the variables the .tf files of dir declare without a default.
func requiredVariables(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range variableBlock.FindAllStringSubmatch(string(b), -1) {
			if !regexp.MustCompile(`(?m)^\s*default\s*=`).MatchString(m[2]) {
				out = append(out, m[1])
			}
		}
	}
	return out
}
