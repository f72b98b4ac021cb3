// Command catalogupdate refreshes the reference data of the embedded catalogs (reference/ at
// the repository root) from the clouds' APIs. It is a tool, outside the layers, never in the
// provider binary. From Azure it reads the public Retail Prices API (no credentials) and the
// Resource SKUs API (azidentity's default credential, --subscription). From AWS it reads the
// Price List, DescribeSpotPriceHistory and DescribeInstanceTypes (the SDK's default chain). It
// rewrites the files the generators read; `make update-catalog` then regenerates the catalogs.
// A region that fails keeps its old snapshot and is listed, and the exit code is then 1.
//
//	go run ./internal/catalogupdate --ref reference [--subscription ID] [--skip aws]
package main
