package nap_test

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// fakeToken is the token the Azure SDK's fake credential issues; the local API server accepts
// it, as AKS accepts an Entra ID token, so the provider's kubernetes { aks_cluster_id } path
// is used end to end: kubeconfig from the fake ARM, bearer token from the fake credential.
const fakeToken = "fake_token"

func TestMain(m *testing.M) {
	testenv.MainWith(m, testenv.Options{
		Tokens: map[string]testenv.User{fakeToken: {Name: "nap-operator@contoso.example", Groups: []string{"system:masters"}}},
	})
}
