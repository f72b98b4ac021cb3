package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simulate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

// usage lists the commands, then says what else the binary is.
const usage = `Usage: terraform-provider-karpenter <command> [flags] [paths...]

Commands:
  review     check NodePools and node classes offline, with the checks the provider runs at plan time
  simulate   predict the nodes Karpenter would launch for the workloads, and what they cost per hour

Run 'terraform-provider-karpenter <command> -h' for a command's flags.
  --version      print the version and the dates of the embedded price snapshots
  --list-codes   list the finding codes with their severity and title

This binary is also the karpenter Terraform provider: Terraform starts it as a plugin (-debug
serves it for a debugger). Run on its own without a command, it only prints this text.
`

// magicCookie is the variable Terraform sets when it starts a provider (go-plugin's handshake);
// without it the plugin server refuses to run.
const magicCookie = "TF_PLUGIN_MAGIC_COOKIE"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx := context.Background()
	if len(args) == 0 {
		if os.Getenv(magicCookie) != "" {
			return serve(false)
		}
		fmt.Fprint(stderr, usage)
		return clitool.ExitUsage
	}
	switch args[0] {
	case "review":
		return review.Main(ctx, args[1:], stdin, stdout, stderr, version)
	case "simulate":
		return simulate.Main(ctx, args[1:], stdin, stdout, stderr, version)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return clitool.ExitClean
	case "version", "-version", "--version":
		clitool.WriteVersion(stdout, version)
		return clitool.ExitClean
	case "-list-codes", "--list-codes":
		clitool.WriteCodes(stdout)
		return clitool.ExitClean
	}
	// Terraform passes -debug (and nothing else) to attach a debugger. The flag set is the
	// binary's own: the global one holds controller-runtime's -kubeconfig, which Karpenter's API
	// types import through github.com/awslabs/operatorpkg/status.
	fs := flag.NewFlagSet(clitool.Binary, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	debug := fs.Bool("debug", false, "run the provider with support for debuggers like delve")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s: unknown command or flag %q%s; run '%s help' for usage\n", clitool.Binary, args[0], nearestCommand(args[0]), clitool.Binary)
		return clitool.ExitUsage
	}
	return serve(*debug)
}

// nearestCommand suggests the command a typo meant.
func nearestCommand(arg string) string {
	if near := clitool.Nearest(strings.TrimLeft(arg, "-"), []string{"review", "simulate", "help", "version", "list-codes"}); near != "" {
		return fmt.Sprintf(" (did you mean %s?)", near)
	}
	return ""
}

func serve(debug bool) int {
	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/karpenter-iac/karpenter",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Print(err)
		return 1
	}
	return 0
}
