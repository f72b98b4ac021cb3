// Package acctest holds what the acceptance tests of all resources share: provider factories
// and the provider block that points at the local test cluster. It is test support at the top
// of the layers: with main.go it is the only importer of internal/provider.
package acctest
