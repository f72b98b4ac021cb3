// Package examples holds the Terraform examples the documentation shows, and the test that
// proves them. It has no code: its test is outside the layers and builds the provider from
// this checkout. Each directory with Terraform files is formatted, validated and planned
// offline (no cluster, no Azure account); `make demo` also applies the quickstart to the local
// API server.
package examples
