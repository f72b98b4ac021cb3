package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
)

// terraform-plugin-testing keeps state in the legacy shape, which has no string keys: it
// fails on any resource created with for_each ("for_each is not supported"). The fleet tests
// therefore run the real terraform (or OpenTofu) binary themselves, with the provider served
// in-process as terraform-plugin-testing serves it (go-plugin's debug mode, reattached through
// TF_REATTACH_PROVIDERS), so the Azure SDK fakes still answer its ARM calls.

// tfBinary is TF_ACC_TERRAFORM_PATH, as `make test` sets it, else terraform from the PATH.
func tfBinary(t *testing.T) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		t.Skip("no terraform on the PATH and no TF_ACC_TERRAFORM_PATH")
	}
	return p
}

// tofuBinary is an OpenTofu binary for the OpenTofu-only tests: the main CLI when it is
// OpenTofu, else TF_ACC_TOFU_PATH (make test builds one: scripts/terraform.sh tofu). Without
// one they skip, except in CI (CI set), where they fail.
func tofuBinary(t *testing.T) string {
	t.Helper()
	if bin := tfBinary(t); isOpenTofu(t, bin) {
		return bin
	}
	bin := os.Getenv("TF_ACC_TOFU_PATH")
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("OpenTofu-only test in CI without OpenTofu: set TF_ACC_TOFU_PATH (make test does, from scripts/terraform.sh tofu)")
		}
		t.Skip("the CLI is Terraform and TF_ACC_TOFU_PATH is not set (make test sets it from scripts/terraform.sh tofu)")
	}
	if !isOpenTofu(t, bin) {
		t.Fatalf("TF_ACC_TOFU_PATH=%s is not OpenTofu", bin)
	}
	return bin
}

// isOpenTofu says whether the binary is OpenTofu.
func isOpenTofu(t *testing.T, bin string) bool {
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	return strings.HasPrefix(string(out), "OpenTofu")
}

// tfDir is a working directory of the real CLI.
type tfDir struct {
	t   *testing.T
	bin string
	dir string
	env []string
	// serve, when set, serves the provider in-process for each command and returns the
	// TF_REATTACH_PROVIDERS value and a stop function.
	serve func() (string, func())
}

func newTFDir(t *testing.T, bin string) *tfDir {
	d := &tfDir{t: t, bin: bin, dir: t.TempDir()}
	cli := filepath.Join(d.dir, "cli.tfrc")
	if err := os.WriteFile(cli, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	d.env = []string{"TF_CLI_CONFIG_FILE=" + cli, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_INPUT=0"}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "TF_") {
			d.env = append(d.env, e)
		}
	}
	return d
}

// inProcess serves the provider, built with opts, in this test process.
func (d *tfDir) inProcess(opts ...provider.Option) *tfDir {
	d.serve = func() (string, func()) {
		ctx, cancel := context.WithCancel(context.Background())
		cfgCh := make(chan *plugin.ReattachConfig, 1)
		closeCh := make(chan struct{})
		server := providerserver.NewProtocol6(provider.New("test", opts...)())
		go func() {
			err := tf6server.Serve("registry.terraform.io/hashicorp/karpenter", func() tfprotov6.ProviderServer { return server() },
				tf6server.WithDebug(ctx, cfgCh, closeCh), tf6server.WithGoPluginLogger(hclog.NewNullLogger()), tf6server.WithLoggingSink(d.t))
			if err != nil {
				d.t.Errorf("serving the provider: %v", err)
			}
		}()
		var cfg *plugin.ReattachConfig
		select {
		case cfg = <-cfgCh:
		case <-closeCh:
			d.t.Fatal("the provider server stopped before it started")
		}
		type addr struct{ Network, String string }
		type reattach struct {
			Protocol        string
			ProtocolVersion int
			Pid             int
			Test            bool
			Addr            addr
		}
		r := reattach{string(cfg.Protocol), cfg.ProtocolVersion, cfg.Pid, cfg.Test, addr{cfg.Addr.Network(), cfg.Addr.String()}}
		b, _ := json.Marshal(map[string]reattach{
			"registry.terraform.io/hashicorp/karpenter": r,
			"registry.opentofu.org/hashicorp/karpenter": r,
		})
		return string(b), func() { cancel(); <-closeCh }
	}
	return d
}

func (d *tfDir) write(name, content string) {
	d.t.Helper()
	if err := os.WriteFile(filepath.Join(d.dir, name), []byte(content), 0o644); err != nil {
		d.t.Fatal(err)
	}
}

// run runs the CLI and returns its stdout, stderr and exit code (-1: it did not run).
func (d *tfDir) run(args ...string) (string, string, int) {
	d.t.Helper()
	env := d.env
	if d.serve != nil {
		reattach, stop := d.serve()
		defer stop()
		env = append(append([]string(nil), env...), "TF_REATTACH_PROVIDERS="+reattach)
	}
	if args[0] != "state" && args[0] != "version" {
		args = append(args[:1:1], append([]string{"-no-color"}, args[1:]...)...)
	}
	cmd := exec.Command(d.bin, args...)
	cmd.Dir, cmd.Env = d.dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return stdout.String(), stderr.String(), exit.ExitCode()
	case err != nil:
		d.t.Fatalf("%s %s: %v", d.bin, strings.Join(args, " "), err)
	}
	return stdout.String(), stderr.String(), 0
}

// must runs the CLI and fails the test unless it succeeds.
func (d *tfDir) must(args ...string) string {
	d.t.Helper()
	out, errOut, code := d.run(args...)
	if code != 0 {
		d.t.Fatalf("%s %s: exit %d\n%s\n%s", filepath.Base(d.bin), strings.Join(args, " "), code, out, errOut)
	}
	return out
}

// planActions plans and returns the actions of each resource change, by address.
func (d *tfDir) planActions() map[string]string {
	d.t.Helper()
	d.must("plan", "-input=false", "-out=plan.out")
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions []string `json:"actions"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(d.must("show", "-json", "plan.out")), &plan); err != nil {
		d.t.Fatal(err)
	}
	out := map[string]string{}
	for _, rc := range plan.ResourceChanges {
		if a := strings.Join(rc.Change.Actions, ","); a != "no-op" {
			out[rc.Address] = a
		}
	}
	return out
}
