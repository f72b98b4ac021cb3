// Package azure builds the Azure SDK clients of the provider: credentials from azidentity and
// the ARM clients for AKS. It is a domain client, with no Terraform imports; internal/connect
// and the NAP resource build on it. Tests inject the Azure SDK's own fake servers through
// Options.ClientOptions (a fake transport) and a fake credential (internal/clients/azure/armfake).
package azure
