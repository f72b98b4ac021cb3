package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog/source"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var inputs multiFlag
	ref := flag.String("ref", "", "reference snapshot directory (vm_skus.json, prices_ondemand_by_region.json, locations.json, known_skus.yaml)")
	out := flag.String("o", "catalog.bin.gz", "output file")
	format := flag.String("format", "bin", "bin (embedded artefact) or json (override file, replace mode)")
	flag.Var(&inputs, "in", "additional input file in a supported API format (repeatable)")
	flag.Parse()
	if err := run(*ref, inputs, *out, *format); err != nil {
		fmt.Fprintln(os.Stderr, "catalog gen:", err)
		os.Exit(1)
	}
}

func run(ref string, inputs []string, out, format string) error {
	if ref == "" && len(inputs) == 0 {
		return fmt.Errorf("nothing to read: give -ref and/or -in")
	}
	b := source.NewBuilder()
	if ref != "" {
		if err := b.ReadSnapshotDir(ref); err != nil {
			return err
		}
	}
	for _, in := range inputs {
		if err := b.ReadFile(in); err != nil {
			return err
		}
	}
	data, err := b.Data()
	if err != nil {
		return err
	}
	c, err := catalog.New(data)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	switch format {
	case "bin":
		err = c.Encode(&buf)
	case "json":
		err = c.WriteOverrideJSON(&buf)
	default:
		err = fmt.Errorf("unknown -format %q", format)
	}
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Printf("catalog gen: %d SKUs, %d regions with data, %d bytes -> %s\n", len(c.SKUs()), len(c.Regions()), buf.Len(), out)
	return nil
}
