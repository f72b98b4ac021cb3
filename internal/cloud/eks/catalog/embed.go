package catalog

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"
)

//go:generate go run ./gen -ref ../../../../reference/aws -o catalog.json.gz

//go:embed catalog.json.gz
var embedded []byte

var (
	defaultOnce sync.Once
	defaultCat  *Catalog
)

// Default returns the catalog embedded at build time, decoded on first use so
// that programs that never reach EKS pay only the binary size.
func Default() *Catalog {
	defaultOnce.Do(func() {
		c, err := Decode(bytes.NewReader(embedded))
		if err != nil {
			// Generated and tested with the code: a decode failure is a build
			// defect, not a condition a caller could handle.
			panic(fmt.Sprintf("embedded EKS catalog: %v", err))
		}
		defaultCat = c
	})
	return defaultCat
}
