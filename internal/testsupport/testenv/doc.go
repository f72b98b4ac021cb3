// Package testenv starts the real kube-apiserver and etcd that tests run against, with the
// Karpenter CRDs installed and established. So the API server's own OpenAPI and CEL
// validation judge every object the provider writes. It is test support, outside the layers.
// The binaries come from scripts/testbins.sh, and `make test` passes their directory in
// KUBEBUILDER_ASSETS. Without it a local run skips the Kubernetes tests with a message. Under
// CI=true a missing binary is a failure, so the suite never passes without running them.
package testenv
