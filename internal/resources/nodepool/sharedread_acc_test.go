package nodepool_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// Issue item "one node-class read per refresh": N pools on one node class that Terraform does
// not manage read it once per refresh, not N times (counted in the API server's audit log),
// and a change of the class made outside Terraform between two plans is still seen by the
// second (its pools' size now lacks encryption at host: KRP101 names the class).
func TestAccNodePoolsShareOneNodeClassReadPerRefresh(t *testing.T) {
	c := testenv.Get(t)
	const class, pools = "acc-shared-class", 4
	sku := skuWithoutEncryptionAtHost(t)
	ctx := context.Background()
	nc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": kinds.AKSNodeClass.APIVersion(), "kind": "AKSNodeClass",
		"metadata": map[string]any{"name": class},
		"spec":     map[string]any{"imageFamily": "AzureLinux"},
	}}
	if _, err := c.Dynamic.Resource(kinds.AKSNodeClass.GVR()).Create(ctx, nc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Dynamic.Resource(kinds.AKSNodeClass.GVR()).Delete(context.Background(), class, metav1.DeleteOptions{})
	})
	var b strings.Builder
	fmt.Fprintf(&b, "provider \"karpenter\" {\n  region     = %q\n  kubernetes = { config_path = %q }\n}\n", checkRegion, c.KubeconfigPath)
	for i := range pools {
		fmt.Fprintf(&b, `
resource "karpenter_nodepool" "p%d" {
  name = "acc-shared-%d"
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = %q }
    requirements   = [{ key = "node.kubernetes.io/instance-type", operator = "In", values = [%q] }]
  }
  limits = { cpu = "100" }
  checks = { suppress = ["KRP102"] }
}
`, i, i, class, sku)
	}
	cfg := b.String()
	// reads counts the GETs of the class so far; the audit log is written as responses
	// complete, so it waits until the count stops moving.
	reads := func() int {
		n, last := 0, -1
		for deadline := time.Now().Add(5 * time.Second); n != last && time.Now().Before(deadline); time.Sleep(300 * time.Millisecond) {
			events, err := c.AuditEvents()
			if err != nil {
				t.Fatal(err)
			}
			last, n = n, 0
			for _, e := range events {
				if e.Resource == "aksnodeclasses" && e.Name == class && e.Verb == "get" {
					n++
				}
			}
		}
		return n
	}
	var before int
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, "acc-shared-0"),
		Steps: []resource.TestStep{
			{Config: cfg, Check: resource.TestCheckResourceAttr("karpenter_nodepool.p0", "analysis.node_class", "AKSNodeClass "+class)},
			{
				// A plan-only step makes one plan without refresh (no read of the class) and
				// one with: its 4 refreshes read the class once.
				PreConfig: func() { before = reads() },
				Config:    cfg,
				PlanOnly:  true,
			},
			{
				PreConfig: func() {
					if n := reads() - before; n != 1 {
						t.Errorf("one refresh of %d pools on one node class made %d GETs of it, want 1", pools, n)
					}
					patch := []byte(`{"spec":{"security":{"encryptionAtHost":true}}}`)
					if _, err := c.Dynamic.Resource(kinds.AKSNodeClass.GVR()).Patch(ctx, class, "application/merge-patch+json", patch, metav1.PatchOptions{FieldManager: "kubectl"}); err != nil {
						t.Fatalf("change outside Terraform: %v", err)
					}
				},
				Config:      cfg,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)KRP101.*AKSNodeClass\s+` + class),
			},
		},
	})
}
