package provider_test

import (
	"fmt"
	"net"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// An API server that does not answer reads as unreachable, not as a rejected NodePool, and
// the create gives up at its timeout.
func TestAccUnreachableAPIServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close() // nothing listens there any more
	cfg := fmt.Sprintf(`
provider "karpenter" {
  kubernetes = {
    host     = "https://%s"
    insecure = true
    token    = "t"
  }
}

resource "karpenter_nodepool" "np" {
  name = "unreachable"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  timeouts = { create = "3s" }
}
`, addr)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: regexp.MustCompile(`Kubernetes API server unreachable(.|\n)*create nodepools\.karpenter\.sh(.|\n)*connection refused`),
		}},
	})
}

// kubernetes.qps and burst reach the client: with one request a second, the second request of
// a create would wait past a 1 s timeout, and the create fails as timed out, naming the rate
// limit, not as rejected. The object it did create is kept in state, tainted, and destroyed.
func TestAccRateLimitIsConfigurable(t *testing.T) {
	c := testenv.Get(t)
	cfg := fmt.Sprintf(`
provider "karpenter" {
  kubernetes = {
    config_path = %q
    qps         = 1
    burst       = 1
  }
}

resource "karpenter_nodepool" "np" {
  name = "rate-limited"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
  timeouts = { create = "1s" }
}
`, c.KubeconfigPath)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			ExpectError: regexp.MustCompile(`Timed out after 1s trying to create NodePool "rate-limited"(.|\n)*kubernetes\.qps`),
		}},
	})
}
