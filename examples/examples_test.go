package examples_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func terraform(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("no terraform binary under CI")
		}
		t.Skip("no terraform binary; run make test")
	}
	return p
}

// exampleDirs lists every directory holding Terraform files. All of them plan offline: the
// provider reaches no cluster and no Azure API during a plan of new resources.
func exampleDirs(t *testing.T) []string {
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".terraform" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".tf") {
			dir := filepath.Dir(path)
			if len(dirs) == 0 || dirs[len(dirs)-1] != dir {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}

func declaresProvider(t *testing.T, dir string) bool {
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "required_providers") {
			return true
		}
	}
	return false
}

func TestExamples(t *testing.T) {
	tf := terraform(t)
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "terraform-provider-karpenter"), "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	rc := filepath.Join(bin, "terraformrc")
	if err := os.WriteFile(rc, []byte(`provider_installation {
  dev_overrides { "karpenter-iac/karpenter" = "`+bin+`" }
  direct {}
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(tf, "fmt", "-check", "-recursive", ".").CombinedOutput(); err != nil {
		t.Fatalf("terraform fmt -check: files are not formatted:\n%s", out)
	}
	tofu := isOpenTofu(t, tf)
	for _, dir := range exampleDirs(t) {
		t.Run(dir, func(t *testing.T) {
			tf := tf
			if strings.HasSuffix(dir, "-opentofu") && !tofu {
				// Provider for_each: Terraform reserves the argument, so the example is planned
				// with OpenTofu (TF_ACC_TOFU_PATH, which make test builds with scripts/terraform.sh
				// tofu). TestAccFleetOpenTofuProviderForEach applies the same shape.
				tf = os.Getenv("TF_ACC_TOFU_PATH")
				switch {
				case tf == "" && os.Getenv("CI") == "true":
					t.Fatalf("%s is OpenTofu-only and TF_ACC_TOFU_PATH is not set under CI", dir)
				case tf == "":
					t.Skipf("%s is OpenTofu-only (provider for_each, 1.9+): set TF_ACC_TOFU_PATH (make test does)", dir)
				case !isOpenTofu(t, tf):
					t.Fatalf("TF_ACC_TOFU_PATH=%s is not OpenTofu", tf)
				}
			}
			work := t.TempDir()
			if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			// The registry examples are fragments without a terraform block; give them one so
			// that Terraform resolves the provider to this checkout's build.
			if !declaresProvider(t, work) {
				_ = os.WriteFile(filepath.Join(work, "zz_provider.tf"), []byte(`terraform {
  required_providers {
    karpenter = { source = "karpenter-iac/karpenter" }
  }
}
`), 0o600)
			}
			run := func(args ...string) string {
				cmd := exec.Command(tf, args...)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "KUBE_CONFIG_PATH=")
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					t.Fatalf("terraform %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out.String())
				}
				return out.String()
			}
			run("validate", "-no-color")
			vars := []string{"plan", "-no-color", "-input=false", "-refresh=false"}
			if dir == "quickstart" {
				// A kubeconfig the plan never uses: nothing is contacted before apply.
				kc := filepath.Join(work, "kubeconfig")
				_ = os.WriteFile(kc, []byte(offlineKubeconfig), 0o600)
				vars = append(vars, "-var", "kubeconfig_path="+kc)
			}
			out := run(vars...)
			if !strings.Contains(out, "Plan:") && !strings.Contains(out, "Changes to Outputs") && !strings.Contains(out, "No changes") {
				t.Errorf("plan of %s printed no plan:\n%s", dir, out)
			}
		})
	}
}

// isOpenTofu says whether the CLI is OpenTofu.
func isOpenTofu(t *testing.T, bin string) bool {
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	return strings.HasPrefix(string(out), "OpenTofu")
}

const offlineKubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: offline
  cluster: {server: "https://127.0.0.1:1"}
users:
- name: offline
  user: {token: unused}
contexts:
- name: offline
  context: {cluster: offline, user: offline}
current-context: offline
`
