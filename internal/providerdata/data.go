// Package providerdata holds what the provider's Configure hands to resources: settings
// and lazily created clients. Nothing here connects anywhere until a resource asks, so
// `terraform plan` of new resources needs no cluster and no Azure credentials.
package providerdata

import (
	"context"
	"sync"
	"time"

	"k8s.io/client-go/rest"

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

	once       sync.Once
	client     *kube.Client
	restConfig *rest.Config
	kubeErr    error

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
	d.once.Do(func() {
		conn, err := d.connect(ctx)
		if err != nil {
			d.kubeErr = err
			return
		}
		cfg, err := conn.RESTConfig()
		if err != nil {
			d.kubeErr = err
			return
		}
		d.restConfig = cfg
		d.client, d.kubeErr = kube.New(cfg)
		if d.client != nil {
			d.client.PollInterval = d.DeletePollInterval
		}
	})
	return d.client, d.kubeErr
}
