package azure

import (
	"fmt"
	"os"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/arm"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/cloud"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// Settings mirror the provider's `azure` block.
type Settings struct {
	SubscriptionID, TenantID, ClientID string
	ClientSecret                       string
	ClientCertificatePath              string
	ClientCertificatePassword          string
	UseCLI, UseMSI, UseOIDC            bool
	OIDCTokenFilePath                  string
	// Environment is public, usgovernment or china.
	Environment string
}

// Options are injected by tests (fake transports and credentials); zero in production.
type Options struct {
	ClientOptions arm.ClientOptions
	Credential    azcore.TokenCredential
}

// Clouds maps the provider's environment names to Azure clouds.
var Clouds = map[string]cloud.Configuration{
	"public":       cloud.AzurePublic,
	"usgovernment": cloud.AzureGovernment,
	"china":        cloud.AzureChina,
}

// ClientOptions returns the ARM client options for the settings' cloud.
func (s Settings) ClientOptions(o Options) (*arm.ClientOptions, error) {
	opts := o.ClientOptions
	if s.Environment != "" {
		c, ok := Clouds[s.Environment]
		if !ok {
			return nil, fmt.Errorf("unknown Azure environment %q: use public, usgovernment or china", s.Environment)
		}
		opts.Cloud = c
	}
	return &opts, nil
}

// Credential returns the credential the settings ask for. With nothing explicit it chains
// environment, workload identity, managed identity and Azure CLI, as azurerm users expect.
func (s Settings) Credential(o Options) (azcore.TokenCredential, error) {
	if o.Credential != nil {
		return o.Credential, nil
	}
	copts, err := s.ClientOptions(o)
	if err != nil {
		return nil, err
	}
	base := azcore.ClientOptions{Cloud: copts.Cloud}
	switch {
	case s.ClientSecret != "":
		return azidentity.NewClientSecretCredential(s.TenantID, s.ClientID, s.ClientSecret, &azidentity.ClientSecretCredentialOptions{ClientOptions: base})
	case s.ClientCertificatePath != "":
		data, err := os.ReadFile(s.ClientCertificatePath)
		if err != nil {
			return nil, fmt.Errorf("reading client certificate: %w", err)
		}
		var pw []byte
		if s.ClientCertificatePassword != "" {
			pw = []byte(s.ClientCertificatePassword)
		}
		certs, key, err := azidentity.ParseCertificates(data, pw)
		if err != nil {
			return nil, fmt.Errorf("parsing client certificate: %w", err)
		}
		return azidentity.NewClientCertificateCredential(s.TenantID, s.ClientID, certs, key, &azidentity.ClientCertificateCredentialOptions{ClientOptions: base})
	case s.UseOIDC:
		return azidentity.NewWorkloadIdentityCredential(&azidentity.WorkloadIdentityCredentialOptions{
			ClientOptions: base, TenantID: s.TenantID, ClientID: s.ClientID, TokenFilePath: s.OIDCTokenFilePath,
		})
	case s.UseMSI:
		opts := &azidentity.ManagedIdentityCredentialOptions{ClientOptions: base}
		if s.ClientID != "" {
			opts.ID = azidentity.ClientID(s.ClientID)
		}
		return azidentity.NewManagedIdentityCredential(opts)
	case s.UseCLI:
		return azidentity.NewAzureCLICredential(&azidentity.AzureCLICredentialOptions{TenantID: s.TenantID})
	}
	return azidentity.NewDefaultAzureCredential(&azidentity.DefaultAzureCredentialOptions{ClientOptions: base, TenantID: s.TenantID})
}

// TokenScope returns the Entra ID scope for a resource in the settings' cloud.
func TokenScope(resource string) []string { return []string{resource + "/.default"} }
