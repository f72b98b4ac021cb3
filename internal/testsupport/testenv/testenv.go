package testenv

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
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

	env  *envtest.Environment
	dir  string
	opts Options

	// controllers is the kube-controller-manager that Options.DisruptionController starts.
	controllers *controllerManager
}

// Options add to the package's cluster what some tests need. The zero value is the cluster
// that Main starts.
type Options struct {
	// Tokens are static bearer tokens the API server accepts (--token-auth-file), each mapped
	// to the user it authenticates as. They let a test prove which credential a client sent.
	Tokens map[string]User
	// Audit records who did what to Karpenter objects; Cluster.AuditEvents reads the record.
	Audit bool
	// EKS also installs the CRDs of Karpenter's AWS provider (crds.EKS: EC2NodeClass), for the
	// tests of karpenter_ec2nodeclass. Off by default, so that the AKS tests run against the
	// CRDs AKS ships and nothing else.
	EKS bool
	// DisruptionController also runs kube-controller-manager with only the disruption
	// controller, which writes the status of PodDisruptionBudgets: the oracle of
	// internal/workload's budget arithmetic.
	DisruptionController bool
	// TokenWebhook, when set, authenticates bearer tokens the other authenticators do not
	// know by asking this webhook (--authentication-token-webhook-config-file), as EKS asks
	// aws-iam-authenticator. The tests of EKS connections serve one that checks the token
	// is a presigned STS GetCallerIdentity URL for the cluster.
	TokenWebhook *Webhook
}

// Webhook is a TokenReview webhook served over HTTPS.
type Webhook struct {
	URL string
	// CA is the PEM certificate the webhook's serving certificate is checked against.
	CA []byte
}

// User is a Kubernetes identity.
type User struct {
	Name   string
	Groups []string
}

var (
	mu      sync.Mutex
	current *Cluster
	skipWhy string
)

// Main is a TestMain body: it starts one cluster for the test package, runs the tests and
// stops the cluster again, also on SIGINT/SIGTERM. Tests call Get to use the cluster.
func Main(m *testing.M) { MainWith(m, Options{}) }

// MainWith is Main for a cluster started with the given options.
func MainWith(m *testing.M, o Options) {
	code := run(m, o)
	os.Exit(code)
}

func run(m *testing.M, o Options) int {
	c, err := StartWith(o)
	switch {
	case err == nil:
		current = c
		defer c.Stop()
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

// Start starts a control plane from the binaries in KUBEBUILDER_ASSETS; Stop ends it.
func Start() (*Cluster, error) { return StartWith(Options{}) }

// StartWith is Start for a cluster with the given options.
func StartWith(o Options) (*Cluster, error) {
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		return nil, fmt.Errorf("KUBEBUILDER_ASSETS is not set: no kube-apiserver/etcd binaries")
	}
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, b)); err != nil {
			return nil, fmt.Errorf("test binary missing: %w", err)
		}
	}
	installed := crds.All()
	if o.EKS {
		installed = append(installed, crds.EKS()...)
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory: assets,
		CRDs:                  installed,
		ErrorIfCRDPathMissing: true,
	}
	dir, err := os.MkdirTemp("", "karpenter-testenv-")
	if err != nil {
		return nil, err
	}
	c := &Cluster{env: env, dir: dir, opts: o}
	if err := c.configure(); err != nil {
		c.Stop()
		return nil, err
	}
	cfg, err := env.Start()
	if err != nil {
		c.Stop()
		return nil, fmt.Errorf("starting kube-apiserver and etcd: %w", err)
	}
	c.Config = cfg
	if err := c.writeKubeconfig(); err != nil {
		c.Stop()
		return nil, err
	}
	if c.Dynamic, err = dynamic.NewForConfig(cfg); err != nil {
		c.Stop()
		return nil, err
	}
	if o.DisruptionController {
		if err := c.startControllerManager(assets, "disruption-controller"); err != nil {
			c.Stop()
			return nil, err
		}
	}
	return c, nil
}

func (c *Cluster) writeKubeconfig() error {
	c.KubeconfigPath = filepath.Join(c.dir, "kubeconfig")
	return os.WriteFile(c.KubeconfigPath, c.env.KubeConfig, 0o600)
}

// configure adds the API server flags that the options ask for, before it starts.
func (c *Cluster) configure() error {
	args := c.env.ControlPlane.GetAPIServer().Configure()
	if len(c.opts.Tokens) > 0 {
		var b strings.Builder
		for token, u := range c.opts.Tokens {
			if strings.ContainsAny(token, ",\"\n") || strings.ContainsAny(u.Name, ",\"\n") {
				return fmt.Errorf("testenv: token and user name must not contain commas, quotes or newlines: %q, %q", token, u.Name)
			}
			// Format: token,user,uid,"group1,group2"
			fmt.Fprintf(&b, "%s,%s,%s,\"%s\"\n", token, u.Name, u.Name, strings.Join(u.Groups, ","))
		}
		p := filepath.Join(c.dir, "tokens.csv")
		if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
			return err
		}
		args.Set("token-auth-file", p)
	}
	if w := c.opts.TokenWebhook; w != nil {
		p := filepath.Join(c.dir, "token-webhook.kubeconfig")
		if err := os.WriteFile(p, webhookKubeconfig(w), 0o600); err != nil {
			return err
		}
		args.Set("authentication-token-webhook-config-file", p)
		args.Set("authentication-token-webhook-version", "v1")
		// Every request asks the webhook, so a test sees each token the client sends.
		args.Set("authentication-token-webhook-cache-ttl", "0s")
	}
	if c.opts.Audit {
		p := filepath.Join(c.dir, "audit-policy.yaml")
		if err := os.WriteFile(p, []byte(auditPolicy), 0o600); err != nil {
			return err
		}
		args.Set("audit-policy-file", p)
		args.Set("audit-log-path", c.auditLogPath())
		// Blocking: an event is written before the response returns, so a test that reads
		// the log right after a request finds it.
		args.Set("audit-log-mode", "blocking")
		args.Set("audit-log-format", "json")
	}
	return nil
}

// AddUser provisions a user that authenticates with a client certificate signed by the
// cluster's CA and returns a kubeconfig for it: the shape of an AKS admin kubeconfig.
func (c *Cluster) AddUser(u User) ([]byte, error) {
	au, err := c.env.ControlPlane.AddUser(envtest.User{Name: u.Name, Groups: u.Groups}, nil)
	if err != nil {
		return nil, err
	}
	return au.KubeConfig()
}

// Stop ends the control plane and removes its files.
func (c *Cluster) Stop() {
	c.controllers.stop()
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
		c.Stop()
		fmt.Fprintf(os.Stderr, "testenv: stopped the local control plane on %v\n", s)
		os.Exit(130)
	}()
}
