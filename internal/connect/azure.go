package connect

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/clients/azure"
)

// azureState holds the provider's `azure` settings and, after first use, the credential and
// client options built from them.
type azureState struct {
	set      bool
	settings azure.Settings
	options  azure.Options
	unknown  []string

	once  sync.Once
	cred  azcore.TokenCredential
	copts *arm.ClientOptions
	err   error
}

// SetAzure records the resolved `azure` block and the options tests inject. Nothing is built
// until a resource asks, so a plan needs no Azure credentials.
// unknown names the settings that are known only after apply.
func (c *Clients) SetAzure(s azure.Settings, o azure.Options, unknown []string) {
	c.azure.settings, c.azure.options, c.azure.unknown, c.azure.set = s, o, unknown, true
}

// Azure returns the settings, credential and ARM client options, building the credential on
// the first call.
func (c *Clients) Azure() (azure.Settings, azcore.TokenCredential, *arm.ClientOptions, error) {
	a := c.azure
	if !a.set {
		return azure.Settings{}, nil, nil, errors.New("the provider's Azure settings were not configured")
	}
	if len(a.unknown) > 0 {
		// Building a credential from the remaining settings could act as another identity.
		return azure.Settings{}, nil, nil, fmt.Errorf("the provider's Azure settings %s are known only after apply; apply what they depend on first", strings.Join(a.unknown, ", "))
	}
	a.once.Do(func() {
		a.copts, a.err = a.settings.ClientOptions(a.options)
		if a.err != nil {
			return
		}
		a.cred, a.err = a.settings.Credential(a.options)
		if a.err != nil {
			a.err = fmt.Errorf("azure credentials: %w", a.err)
		}
	})
	return a.settings, a.cred, a.copts, a.err
}
