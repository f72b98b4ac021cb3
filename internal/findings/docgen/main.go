// Command docgen writes the findings guide, templates/guides/findings.md.tmpl, from the finding
// code registry (internal/findings): one section per code with its severity, title, help text,
// where it is reported and how to silence it. tfplugindocs then renders the template to
// docs/guides/findings.md like every other guide. A test fails when the committed template is
// not what this command writes, so a new or changed code cannot leave the guide behind.
//
//	go generate ./internal/findings/docgen   (or make generate)
package main

//go:generate go run . -o ../../../templates/guides/findings.md.tmpl

import (
	"flag"
	"fmt"
	"os"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

func main() {
	out := flag.String("o", "findings.md.tmpl", "file to write")
	flag.Parse()
	b, err := Render(findings.All())
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "findings docgen:", err)
		os.Exit(1)
	}
}
