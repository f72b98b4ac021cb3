package kube

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The connection's default rate limit lets 100 creates at once through one client within a
// 15 s timeout each. With client-go's own default (5/s, burst 10) the 200 requests they make
// took 40 s, and creates failed on the client's rate limiter.
func TestDefaultRateLimitKeepsUpWithParallelCreates(t *testing.T) {
	cl := testenv.Get(t)
	cfg, err := Connection{ConfigPath: cl.KubeconfigPath}.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.QPS != DefaultQPS || cfg.Burst != DefaultBurst {
		t.Fatalf("QPS, Burst = %v, %d; want the defaults %d, %d", cfg.QPS, cfg.Burst, DefaultQPS, DefaultBurst)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const n = 100
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range n {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			defer cancel()
			_, errs[i] = c.Create(ctx, nodePools, pool(fmt.Sprintf("ratelimit-%d", i)))
		})
	}
	wg.Wait()
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			if failed <= 3 {
				t.Errorf("create %d: %v", i, err)
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d creates failed", failed, n)
	}
	t.Logf("%d creates in %s", n, time.Since(start).Round(time.Millisecond))
}

func TestConfiguredRateLimit(t *testing.T) {
	cfg, err := Connection{Host: "https://127.0.0.1:1", QPS: 7, Burst: 9}.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.QPS != 7 || cfg.Burst != 9 {
		t.Errorf("QPS, Burst = %v, %d; want 7, 9", cfg.QPS, cfg.Burst)
	}
}
