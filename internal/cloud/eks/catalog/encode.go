package catalog

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
)

// The artefact is gzip-compressed JSON with short field names: small enough
// (tens of kB) that a bespoke binary format would buy nothing, and readable
// with zcat when a number is in doubt.

// Encode writes the catalog artefact.
func (c *Catalog) Encode(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(zw).Encode(c); err != nil {
		return err
	}
	return zw.Close()
}

// Decode reads an artefact written by Encode.
func Decode(r io.Reader) (*Catalog, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("eks catalog: %w", err)
	}
	defer zr.Close()
	var c Catalog
	dec := json.NewDecoder(zr)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("eks catalog: %w", err)
	}
	if err := c.index(); err != nil {
		return nil, fmt.Errorf("eks catalog: %w", err)
	}
	return &c, nil
}
