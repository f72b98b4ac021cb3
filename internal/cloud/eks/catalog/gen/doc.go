// Command gen builds the embedded EC2 catalog (catalog.json.gz) from the reference directory.
// It is a tool, outside the layers; run it through go generate in internal/cloud/eks/catalog
// (make generate-eks-catalog).
//
//	go run ./gen -ref ../../../../reference/aws -o catalog.json.gz
package main
