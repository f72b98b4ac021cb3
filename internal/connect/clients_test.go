package connect

import (
	"context"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// All resources of a provider configuration share one client, and so one rate limit: a
// client per resource would multiply the requests the API server sees by -parallelism.
func TestKubeClientIsShared(t *testing.T) {
	connects := 0
	d := New(func(context.Context) (kube.Connection, error) {
		connects++
		return kube.Connection{Host: "https://127.0.0.1:1"}, nil
	})
	a, err := d.Kube(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Kube(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if a != b || connects != 1 {
		t.Errorf("two calls gave clients %p and %p after %d connects; want one client, one connect", a, b, connects)
	}
	// Other clients built from the configuration share its rate limiter.
	cfg, err := d.RESTConfig(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RateLimiter == nil || cfg.RateLimiter.QPS() != kube.DefaultQPS {
		t.Errorf("RESTConfig().RateLimiter = %v, want one shared limiter at %d/s", cfg.RateLimiter, kube.DefaultQPS)
	}
}
