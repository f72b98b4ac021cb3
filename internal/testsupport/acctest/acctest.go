package acctest

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/provider"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/providerdata"
)

// Factories serve the provider in-process to the real terraform binary.
func Factories(opts ...provider.Option) map[string]func() (tfprotov6.ProviderServer, error) {
	opts = append([]provider.Option{provider.WithConfigured(func(d *providerdata.Data) {
		d.Clients.DeletePollInterval = 100 * time.Millisecond
	})}, opts...)
	return map[string]func() (tfprotov6.ProviderServer, error){
		"karpenter": providerserver.NewProtocol6WithError(provider.New("test", opts...)()),
	}
}

// ProviderBlock configures the provider for a kubeconfig file.
func ProviderBlock(kubeconfig string) string {
	return fmt.Sprintf("provider \"karpenter\" {\n  kubernetes = { config_path = %q }\n}\n", kubeconfig)
}
