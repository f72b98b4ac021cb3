// Command gen builds the embedded SKU catalog (catalog.bin.gz) from inputs in the Azure APIs'
// own formats. It is a tool, outside the layers; run it through go generate in
// internal/cloud/aks/catalog. -ref reads the reference snapshot directory. Each -in adds one
// saved API response (Resource SKUs list page, Retail Prices items page, Locations list) or a
// known_skus.yaml, recognised by content. -format json writes an override file in "replace"
// mode instead of the binary artefact.
//
//	go run ./gen -ref ../../../../reference/catalog -o catalog.bin.gz
//	go run ./gen -ref DIR -in skus-page1.json -in prices-eastus.json -o fresh.json -format json
package main
