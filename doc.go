// Command terraform-provider-karpenter is the karpenter Terraform provider, and the review and
// simulate commands for pipelines. It is the top of the layers (DESIGN.md): with
// internal/testsupport/acctest it is the only importer of internal/provider. A first argument
// `review` or `simulate` runs that command (internal/cli); no argument under Terraform's plugin
// handshake serves the provider. Its tests run the built binary as a user would: the guides'
// output blocks, the GitOps example and the release files.
package main
