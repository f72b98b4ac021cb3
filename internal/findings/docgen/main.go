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
