package connect

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// Clients are the lazily created connections of one provider instance, shared by all its
// resources.
type Clients struct {
	// DeletePollInterval is how often deletion progress is polled (shortened in tests).
	DeletePollInterval time.Duration
	// AzurePollInterval is how often Azure long-running operations are polled when Azure
	// does not say (shortened in tests).
	AzurePollInterval time.Duration

	// connect resolves the Kubernetes connection; for AKS it calls the Azure API, so it runs
	// only on first use.
	connect func(ctx context.Context) (kube.Connection, error)

	kubeMu     sync.Mutex
	client     *kube.Client
	restConfig *rest.Config
	// asked is set once a resource operation asked for the client (Kube), not only a
	// plan-time read: Connected answers only then.
	asked bool

	// azure is shared with the clients of the fleet's clusters: one credential, one token cache.
	azure *azureState
	// aws is shared likewise: one AWS configuration, one credential cache.
	aws *awsState

	// fleet are the clients of the clusters that resources name in their `cluster` attribute
	// (clusters.go), shared with those clusters' clients.
	fleet *fleet

	// planTime keeps the failure of a plan-time read (plantime.go).
	planTime planTimeReads
}

// New returns clients whose Kubernetes client is built by connect on first use.
func New(connect func(ctx context.Context) (kube.Connection, error)) *Clients {
	return &Clients{connect: connect, DeletePollInterval: 2 * time.Second, AzurePollInterval: 10 * time.Second, azure: &azureState{}, aws: &awsState{}, fleet: &fleet{}}
}

// Kube returns the Kubernetes client, connecting on the first call.
func (c *Clients) Kube(ctx context.Context) (*kube.Client, error) {
	c.kubeMu.Lock()
	defer c.kubeMu.Unlock()
	client, err := c.kubeLocked(ctx)
	if err == nil {
		c.asked = true
	}
	return client, err
}

// kubeLocked returns the client, connecting if none is kept; kubeMu is held.
func (c *Clients) kubeLocked(ctx context.Context) (*kube.Client, error) {
	// Only success is kept: a failure (an ARM hiccup, a cancelled request) is retried by the
	// next caller instead of failing every resource until Terraform restarts the provider.
	if c.client != nil {
		return c.client, nil
	}
	conn, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	cfg, err := conn.RESTConfig()
	if err != nil {
		return nil, err
	}
	// One rate limiter for every client of this cluster: the dynamic client of the resources
	// and the clientsets built from RESTConfig (the CRDs of karpenter_aks_node_auto_provisioning).
	cfg.RateLimiter = flowcontrol.NewTokenBucketRateLimiter(cfg.QPS, cfg.Burst)
	client, err := kube.New(cfg)
	if err != nil {
		return nil, err
	}
	client.PollInterval = c.DeletePollInterval
	client.OnRetry = func(ctx context.Context, failed *kube.RequestError, wait time.Duration) {
		tflog.Warn(ctx, "Kubernetes request failed, retrying", map[string]any{
			"error": failed.Error(), "failure": failed.Failure.String(), "attempt": failed.Attempts, "retry_in": wait.String(),
		})
	}
	c.restConfig, c.client = cfg, client
	return client, nil
}

// RESTConfig returns the Kubernetes client configuration, connecting on the first call as
// Kube does, for clients other than the dynamic one (e.g. the apiextensions clientset).
func (c *Clients) RESTConfig(ctx context.Context) (*rest.Config, error) {
	if _, err := c.Kube(ctx); err != nil {
		return nil, err
	}
	return c.restConfig, nil
}

// Connected returns the Kubernetes client when an earlier call connected it (a refresh, a
// write), else nil: for plan-time reads that must not make an offline plan connect.
func (c *Clients) Connected() *kube.Client {
	c.kubeMu.Lock()
	defer c.kubeMu.Unlock()
	if !c.asked {
		// Connected by a plan-time read alone: the plan stays as offline as it was.
		return nil
	}
	return c.client
}
