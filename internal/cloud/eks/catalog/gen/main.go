package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

func main() {
	ref := flag.String("ref", "", "reference directory with "+catalog.DocsFile+", "+catalog.VPCFile+", "+catalog.OnDemandFile+", "+catalog.SpotFile)
	out := flag.String("o", "catalog.json.gz", "output file")
	flag.Parse()
	if err := run(*ref, *out); err != nil {
		fmt.Fprintln(os.Stderr, "eks catalog gen:", err)
		os.Exit(1)
	}
}

func run(ref, out string) error {
	if ref == "" {
		return fmt.Errorf("give -ref DIR")
	}
	c, err := catalog.Build(ref)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := c.Encode(&buf); err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("eks catalog gen: %d instance types, %d price tables, %d bytes -> %s\n", len(c.Types), len(c.PriceTables), buf.Len(), out)
	return nil
}
