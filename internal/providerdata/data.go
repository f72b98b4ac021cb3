// Package providerdata holds what the provider's Configure hands to resources: settings
// and lazily created clients. Nothing here connects anywhere until a resource asks, so
// `terraform plan` of new resources needs no cluster and no Azure credentials.
package providerdata

import (
	"context"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kube"
)

// Data is shared by all resources of one provider instance.
type Data struct {
	// Region is the Azure region plan-time checks price and check against ("" = all regions).
	Region string
	// DeletePollInterval is how often deletion progress is polled (shortened in tests).
	DeletePollInterval time.Duration
	// Checks configure the plan-time provisioning checks.
	Checks Checks

	plan planState

	// connect resolves the Kubernetes connection; for AKS it calls the Azure API, so it runs
	// only on first use.
	connect func(ctx context.Context) (kube.Connection, error)

	kubeMu     sync.Mutex
	client     *kube.Client
	restConfig *rest.Config

	// AzurePollInterval is how often Azure long-running operations are polled when Azure
	// does not say (shortened in tests).
	AzurePollInterval time.Duration
	azure             azureState
}

// New returns provider data whose Kubernetes client is built by connect on first use.
func New(region string, connect func(ctx context.Context) (kube.Connection, error)) *Data {
	return &Data{Region: region, connect: connect, DeletePollInterval: 2 * time.Second, AzurePollInterval: 10 * time.Second}
}

// Kube returns the Kubernetes client, connecting on the first call.
func (d *Data) Kube(ctx context.Context) (*kube.Client, error) {
	d.kubeMu.Lock()
	defer d.kubeMu.Unlock()
	// Only success is kept: a failure (an ARM hiccup, a cancelled request) is retried by the
	// next caller instead of failing every resource until Terraform restarts the provider.
	if d.client != nil {
		return d.client, nil
	}
	conn, err := d.connect(ctx)
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
	client.PollInterval = d.DeletePollInterval
	client.OnRetry = func(ctx context.Context, failed *kube.RequestError, wait time.Duration) {
		tflog.Warn(ctx, "Kubernetes request failed, retrying", map[string]any{
			"error": failed.Error(), "failure": failed.Failure.String(), "attempt": failed.Attempts, "retry_in": wait.String(),
		})
	}
	d.restConfig, d.client = cfg, client
	return client, nil
}
