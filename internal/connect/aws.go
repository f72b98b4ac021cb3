package connect

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	sdkaws "github.com/aws/aws-sdk-go-v2/aws"

	awsclient "github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/aws"
)

// awsState holds the provider's `aws` settings and, after first use, the AWS configuration
// loaded from them: one credential cache for the provider's EKS cluster and every EKS cluster
// of its fleet.
type awsState struct {
	set      bool
	settings awsclient.Settings
	options  awsclient.Options
	unknown  []string

	mu  sync.Mutex
	cfg *sdkaws.Config
}

// SetAWS records the resolved `aws` block and the options tests inject. Nothing is loaded
// until a resource asks, so a plan needs no AWS credentials. unknown names the settings that
// are known only after apply.
func (c *Clients) SetAWS(s awsclient.Settings, o awsclient.Options, unknown []string) {
	c.aws.settings, c.aws.options, c.aws.unknown, c.aws.set = s, o, unknown, true
}

// AWS returns the settings and the AWS configuration, loading it on the first successful
// call (a failure, such as a profile not written yet, is not kept).
func (c *Clients) AWS(ctx context.Context) (awsclient.Settings, sdkaws.Config, error) {
	a := c.aws
	if !a.set {
		return awsclient.Settings{}, sdkaws.Config{}, errors.New("the provider's AWS settings were not configured")
	}
	if len(a.unknown) > 0 {
		// Loading credentials from the remaining settings could act as another identity.
		return awsclient.Settings{}, sdkaws.Config{}, fmt.Errorf("the provider's AWS settings %s are known only after apply; apply what they depend on first", strings.Join(a.unknown, ", "))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.cfg == nil {
		cfg, err := a.settings.Config(ctx, a.options)
		if err != nil {
			return a.settings, sdkaws.Config{}, err
		}
		a.cfg = &cfg
	}
	return a.settings, *a.cfg, nil
}
