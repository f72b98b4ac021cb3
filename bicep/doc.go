// Package bicep holds the tests of the Bicep module set under bicep/ (see README.md there).
// The Bicep CLI is not available to these tests; they check what can be checked without it:
// the Kubernetes objects the modules create (through crdvalidate and a real API server), the
// generated types against the provider schema, resource types and API versions against the
// Azure SDK the provider uses, every parameter's description, and every file reference.
package bicep

//go:generate go run ./gen
