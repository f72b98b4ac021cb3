// Command localcluster runs the test suite's local control plane (kube-apiserver and etcd
// with the Karpenter CRDs) outside of tests, for `make demo` and for trying the provider by
// hand. It is test support, outside the layers. It writes an admin kubeconfig and runs until
// interrupted.
package main
