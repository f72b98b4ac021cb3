// Package testenv starts the real kube-apiserver and etcd that tests run against, with the
// Karpenter CRDs as AKS ships them installed and established, so that the API server's own
// OpenAPI and CEL validation judge every object the provider writes.
//
// The binaries come from scripts/testbins.sh (built from the Go module proxy); their directory
// is passed in KUBEBUILDER_ASSETS, which `make test` sets. Without it a local run skips the
// Kubernetes tests with a message, but under CI=true a missing binary is a failure, so the
// suite can never pass green without running them.
package testenv

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crds"
)

// Cluster is a running local control plane.
type Cluster struct {
	Config *rest.Config
	// KubeconfigPath is an admin kubeconfig file for the cluster, for Terraform configurations.
	KubeconfigPath string
	Dynamic        dynamic.Interface

	env *envtest.Environment
	dir string
}

var (
	mu      sync.Mutex
	current *Cluster
	skipWhy string
)

// Main is a TestMain body: it starts one cluster for the test package, runs the tests and
// stops the cluster again, also on SIGINT/SIGTERM. Tests call Get to use the cluster.
func Main(m *testing.M) {
	code := run(m)
	os.Exit(code)
}

func run(m *testing.M) int {
	c, err := start()
	switch {
	case err == nil:
		current = c
		defer c.stop()
		stopOnSignal(c)
	case os.Getenv("CI") == "true":
		fmt.Fprintf(os.Stderr, "testenv: %v\n(under CI=true the local API server is required; run `make test`)\n", err)
		return 1
	default:
		skipWhy = err.Error() + " (run `make test`, which builds the binaries, to run these tests)"
	}
	return m.Run()
}

// Get returns the package's cluster, or skips the test when none could be started locally.
func Get(t testing.TB) *Cluster {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if current == nil {
		if skipWhy == "" {
			t.Fatal("testenv.Get called without testenv.Main in TestMain")
		}
		t.Skip(skipWhy)
	}
	return current
}

func start() (*Cluster, error) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		return nil, fmt.Errorf("KUBEBUILDER_ASSETS is not set: no kube-apiserver/etcd binaries")
	}
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, b)); err != nil {
			return nil, fmt.Errorf("test binary missing: %w", err)
		}
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDs:                  crds.All(),
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, fmt.Errorf("starting kube-apiserver and etcd: %w", err)
	}
	c := &Cluster{Config: cfg, env: env}
	if err := c.writeKubeconfig(); err != nil {
		c.stop()
		return nil, err
	}
	if c.Dynamic, err = dynamic.NewForConfig(cfg); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) writeKubeconfig() error {
	dir, err := os.MkdirTemp("", "karpenter-testenv-")
	if err != nil {
		return err
	}
	c.dir = dir
	c.KubeconfigPath = filepath.Join(dir, "kubeconfig")
	return os.WriteFile(c.KubeconfigPath, c.env.KubeConfig, 0o600)
}

func (c *Cluster) stop() {
	if c.env != nil {
		_ = c.env.Stop()
	}
	if c.dir != "" {
		_ = os.RemoveAll(c.dir)
	}
}

// stopOnSignal stops the control plane when the test binary is interrupted, so that no
// kube-apiserver or etcd outlives the run.
func stopOnSignal(c *Cluster) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-ch
		c.stop()
		fmt.Fprintf(os.Stderr, "testenv: stopped the local control plane on %v\n", s)
		os.Exit(130)
	}()
}
