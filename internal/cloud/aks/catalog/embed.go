package catalog

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"
)

//go:generate go run ./gen -ref ../../../../reference/catalog -o catalog.bin.gz

//go:embed catalog.bin.gz
var embedded []byte

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
)

// Default returns the catalog embedded at build time. It is decoded on first
// use only, so programs that never ask for it pay nothing beyond binary size.
func Default() *Catalog {
	defaultOnce.Do(func() {
		c, err := Decode(bytes.NewReader(embedded))
		if err != nil {
			// The artefact is generated and tested with the code; failing to decode
			// it is a build defect, not a runtime condition callers could handle.
			panic(fmt.Sprintf("embedded catalog: %v", err))
		}
		defaultCat = c
	})
	return defaultCat
}

// Load returns the embedded catalog with the override file at path applied, or
// the embedded catalog alone when path is empty.
func Load(path string) (*Catalog, error) {
	if path == "" {
		return Default(), nil
	}
	o, err := LoadOverride(path)
	if err != nil {
		return nil, err
	}
	return Default().Apply(o)
}
