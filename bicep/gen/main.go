package main

import (
	"fmt"
	"os"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bicepgen"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	for _, m := range bicepgen.Modules() {
		if err := m.Write(dir); err != nil {
			fmt.Fprintln(os.Stderr, "bicep/gen:", err)
			os.Exit(1)
		}
	}
}
