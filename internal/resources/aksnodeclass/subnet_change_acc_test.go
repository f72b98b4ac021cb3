package aksnodeclass_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// An update that moves a node class in the state to another subnet is reported on
// vnet_subnet_id (KRP409; an error under checks.strict): every node drifts. Creating a node
// class with a subnet, changing only the case of the ID, or leaving it unchanged is not.
func TestAccAKSNodeClassSubnetChange(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-nc-subnet-change"
	other := strings.TrimSuffix(subnet, "/nodes") + "/nodes-b"
	cfg := func(strict bool, id string) string {
		return fmt.Sprintf(`
provider "karpenter" {
  kubernetes = { config_path = %q }
  checks     = { strict = %t }
}

resource "karpenter_aksnodeclass" "test" {
  name           = %q
  vnet_subnet_id = %q
}
`, c.KubeconfigPath, strict, name, id)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{Config: cfg(true, subnet)},
			{Config: cfg(true, strings.ToUpper(subnet)), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: cfg(true, other), PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)KRP409.*Attribute\s+vnet_subnet_id:.*vnet_subnet_id\s+changes\s+from\s+/subscriptions/.*/subnets/nodes\s+to\s+.*/subnets/nodes-b.*drifts`)},
			{Config: cfg(false, other), PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
}
