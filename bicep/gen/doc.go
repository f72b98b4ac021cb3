// Command gen regenerates the Bicep user-defined types of the karpenter-nodepool and
// karpenter-aksnodeclass modules from the CRD trees (internal/bicepgen). It is a tool, outside
// the layers, never in the provider binary. It runs from the bicep/ directory through
// `go generate ./bicep/...` (bicep/doc.go).
package main
