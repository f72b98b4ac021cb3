// Command terraform-provider-karpenter is the karpenter Terraform provider.
package main

import (
	"context"
	"flag"
	"log"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simulate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
)

// version is set at build time: -ldflags "-X main.version=1.2.3".
var version = "dev"

func main() {
	// `terraform-provider-karpenter review ...` and `simulate ...` are commands for pipelines; Terraform
	// starts the binary without arguments (or with -debug), and then it serves the plugin.
	if len(os.Args) > 1 && os.Args[1] == "review" {
		os.Exit(review.Main(context.Background(), os.Args[2:], os.Stdin, os.Stdout, os.Stderr, version))
	}
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-version" || os.Args[1] == "version") {
		review.WriteVersion(os.Stdout, version)
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "simulate" {
		os.Exit(simulate.Main(context.Background(), os.Args[2:], os.Stdin, os.Stdout, os.Stderr, version))
	}
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address:         "registry.terraform.io/karpenter-iac/karpenter",
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err)
	}
}
