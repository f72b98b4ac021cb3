package kube

import (
	"errors"
	"fmt"
	"net/http"
	"os"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Connection says how to reach a cluster. The fields mirror the provider's `kubernetes`
// block; explicit fields override what a kubeconfig file says.
type Connection struct {
	ConfigPath    string
	ConfigContext string

	Host                 string
	ClusterCACertificate []byte // PEM
	Insecure             bool
	Token                string
	ClientCertificate    []byte // PEM
	ClientKey            []byte // PEM

	Exec *ExecConfig

	// QPS and Burst are the client-side rate limit of all requests to the cluster (0: DefaultQPS,
	// DefaultBurst).
	QPS   float32
	Burst int

	// WrapTransport adds authentication that has no kubeconfig form, such as Entra ID tokens
	// fetched in-process for AKS.
	WrapTransport func(http.RoundTripper) http.RoundTripper
}

// ExecConfig runs a client-go credential plugin, as a kubeconfig `exec` entry does.
type ExecConfig struct {
	APIVersion string
	Command    string
	Args       []string
	Env        map[string]string
}

// The default client-side rate limit of all requests to the cluster. client-go's own (5/s,
// burst 10) capped an apply at about 2.5 objects/s whatever Terraform's -parallelism (a create
// is two requests) and kept requests waiting in the client until a short resource timeout
// failed them. The API server's priority and fairness still protects it from any one client,
// and its 429 answers are retried.
const (
	DefaultQPS   = 100
	DefaultBurst = 200
)

// ErrNoConnection says that nothing in the configuration or environment names a cluster.
var ErrNoConnection = errors.New("no Kubernetes connection is configured: set the provider's kubernetes block (config_path, host, exec or aks_cluster_id) or KUBE_CONFIG_PATH")

// RESTConfig builds the client configuration. It reads files but makes no request.
func (c Connection) RESTConfig() (*rest.Config, error) {
	if c.ConfigPath == "" && c.Host == "" {
		return nil, ErrNoConnection
	}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: c.ConfigContext}
	rules := &clientcmd.ClientConfigLoadingRules{}
	if c.ConfigPath != "" {
		if _, err := os.Stat(c.ConfigPath); err != nil {
			return nil, fmt.Errorf("kubeconfig %q cannot be read: %w", c.ConfigPath, err)
		}
		rules.ExplicitPath = c.ConfigPath
	}
	if c.Host != "" {
		overrides.ClusterInfo.Server = c.Host
	}
	if len(c.ClusterCACertificate) > 0 {
		overrides.ClusterInfo.CertificateAuthorityData = c.ClusterCACertificate
	}
	if c.Insecure {
		overrides.ClusterInfo.InsecureSkipTLSVerify = true
	}
	if c.Token != "" {
		overrides.AuthInfo.Token = c.Token
	}
	if len(c.ClientCertificate) > 0 {
		overrides.AuthInfo.ClientCertificateData = c.ClientCertificate
		overrides.AuthInfo.ClientKeyData = c.ClientKey
	}
	if c.Exec != nil {
		exec := &clientcmdapi.ExecConfig{
			APIVersion:      c.Exec.APIVersion,
			Command:         c.Exec.Command,
			Args:            c.Exec.Args,
			InteractiveMode: clientcmdapi.NeverExecInteractiveMode,
		}
		for k, v := range c.Exec.Env {
			exec.Env = append(exec.Env, clientcmdapi.ExecEnvVar{Name: k, Value: v})
		}
		overrides.AuthInfo.Exec = exec
	}
	var cfg *rest.Config
	var err error
	if c.ConfigPath != "" {
		cfg, err = clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides).ClientConfig()
	} else {
		cfg, err = clientcmd.NewDefaultClientConfig(*clientcmdapi.NewConfig(), overrides).ClientConfig()
	}
	if err != nil {
		return nil, err
	}
	cfg.UserAgent = "terraform-provider-karpenter"
	cfg.QPS, cfg.Burst = c.QPS, c.Burst
	if cfg.QPS <= 0 {
		cfg.QPS = DefaultQPS
	}
	if cfg.Burst <= 0 {
		cfg.Burst = DefaultBurst
	}
	if c.WrapTransport != nil {
		cfg.Wrap(c.WrapTransport)
	}
	return cfg, nil
}
