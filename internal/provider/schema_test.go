package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
)

// Credential plugins are commonly given a token in an argument or the environment
// (`--token`, `AAD_SERVICE_PRINCIPAL_CLIENT_SECRET`): those values must never be shown.
func TestExecArgsAndEnvAreSensitive(t *testing.T) {
	exec := kubernetesSchema().Attributes["exec"].(schema.SingleNestedAttribute)
	for _, name := range []string{"args", "env"} {
		if !exec.Attributes[name].IsSensitive() {
			t.Errorf("kubernetes.exec.%s is not marked sensitive", name)
		}
	}
	for _, name := range []string{"token", "client_key"} {
		if !kubernetesSchema().Attributes[name].IsSensitive() {
			t.Errorf("kubernetes.%s is not marked sensitive", name)
		}
	}
}
