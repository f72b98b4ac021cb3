package connect

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/kube"
)

// planTimeReads remembers that a plan-time read failed in this provider instance.
type planTimeReads struct {
	mu     sync.Mutex
	failed error
}

// PlanTimeRead runs read with the Kubernetes client, connecting as Kube does, for a read the
// plan can do without (a new pool's node class). After one failure, every later call of this
// provider instance fails at once with the same error. So a cluster the plan cannot reach costs
// one timeout per Terraform walk, not one per resource. The caller bounds ctx. The connection
// it makes does not count for Connected: the plan-time checks that need a connected plan (the
// drift warning) stay off in a plan that only this read connected.
func (c *Clients) PlanTimeRead(ctx context.Context, read func(context.Context, *kube.Client) error) error {
	c.planTime.mu.Lock()
	failed := c.planTime.failed
	c.planTime.mu.Unlock()
	if failed != nil {
		return failed
	}
	c.kubeMu.Lock()
	client, err := c.kubeLocked(ctx)
	c.kubeMu.Unlock()
	if err == nil {
		err = read(ctx, client)
	}
	if err != nil {
		tflog.Info(ctx, "Plan-time read of the cluster failed; later ones in this walk are skipped", map[string]any{"error": err.Error()})
		c.planTime.mu.Lock()
		if c.planTime.failed == nil {
			c.planTime.failed = err
		}
		c.planTime.mu.Unlock()
	}
	return err
}
