package provider_test

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// entraToken is the token the Azure SDK's fake credential (azfake.TokenCredential) issues;
// the local API server accepts it as entraUser, as AKS accepts an Entra ID token.
const (
	entraToken = "fake_token"
	entraUser  = "alice@contoso.example"
)

func TestMain(m *testing.M) {
	testenv.MainWith(m, testenv.Options{
		Tokens: map[string]testenv.User{
			entraToken:    {Name: entraUser, Groups: []string{"system:masters"}},
			rbacToken:     {Name: "terraform-rbac", Groups: []string{rbacGroup}},
			noPatchToken:  {Name: "terraform-no-patch", Groups: []string{noPatchGroup}},
			noCreateToken: {Name: "terraform-no-create", Groups: []string{noCreateGroup}},
		},
		Audit: true,
	})
}
