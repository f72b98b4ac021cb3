package nodepool_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// kubectlCreate creates a NodePool as `kubectl create` would: its own manager, weight 99.
func kubectlCreate(c *testenv.Cluster, name string) error {
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "karpenter.sh/v1", "kind": "NodePool",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"weight": int64(99),
			"template": map[string]any{"spec": map[string]any{
				"nodeClassRef": map[string]any{"group": "karpenter.azure.com", "kind": "AKSNodeClass", "name": "default"},
				"requirements": []any{map[string]any{"key": "kubernetes.io/arch", "operator": "In", "values": []any{"amd64"}}},
			}},
		},
	}}
	_, err := c.Dynamic.Resource(gvr).Create(context.Background(), obj, metav1.CreateOptions{FieldManager: "kubectl-create"})
	return err
}

// terraform apply of 30 NodePools races `kubectl create` of the same names: the apply fails
// for the names the other writer got first, naming import, and the destroy that follows
// deletes only what Terraform created: the other writer's objects are still there,
// unchanged. (Before creates were atomic, some of them came back "Creation complete", were
// taken over and were deleted by the destroy.)
func TestAccNodePoolCreateRacesKubectl(t *testing.T) {
	c := testenv.Get(t)
	const n = 30
	var b strings.Builder
	b.WriteString(acctest.ProviderBlock(c.KubeconfigPath))
	for i := range n {
		fmt.Fprintf(&b, `
resource "karpenter_nodepool" "p%d" {
  name   = "race-%d"
  weight = 7
  template = {
    node_class_ref = { group = "karpenter.azure.com", kind = "AKSNodeClass", name = "default" }
    requirements   = [{ key = "kubernetes.io/arch", operator = "In", values = ["amd64"] }]
  }
}
`, i, i)
	}
	var wg sync.WaitGroup
	theirs := make([]error, n)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			PreConfig: func() {
				// The first five exist before the apply; the rest are created all at once as
				// soon as the apply has created its first object.
				for i := range 5 {
					theirs[i] = kubectlCreate(c, fmt.Sprintf("race-%d", i))
				}
				wg.Go(func() {
					for !applyStarted(c) {
						time.Sleep(2 * time.Millisecond)
					}
					var all sync.WaitGroup
					for i := 5; i < n; i++ {
						all.Go(func() { theirs[i] = kubectlCreate(c, fmt.Sprintf("race-%d", i)) })
					}
					all.Wait()
				})
			},
			Config:      b.String(),
			ExpectError: regexp.MustCompile(`NodePool already exists(.|\n)*terraform import`),
		}},
	})
	// After the test's terraform destroy.
	wg.Wait()
	ours := 0
	for i := range n {
		name := fmt.Sprintf("race-%d", i)
		obj, err := c.Dynamic.Resource(gvr).Get(context.Background(), name, metav1.GetOptions{})
		switch {
		case theirs[i] == nil && err != nil:
			t.Errorf("%s: created by the other writer, gone after terraform destroy: %v", name, err)
		case theirs[i] == nil:
			w, _, _ := unstructured.NestedInt64(obj.Object, "spec", "weight")
			for _, e := range obj.GetManagedFields() {
				if e.Manager != "kubectl-create" {
					t.Errorf("%s: the other writer's object has fields of %s", name, e.Manager)
				}
			}
			if w != 99 {
				t.Errorf("%s: the other writer's weight 99 is now %d", name, w)
			}
		case err == nil:
			t.Errorf("%s: Terraform created it (the other writer got %v), but it survived terraform destroy", name, theirs[i])
		default:
			ours++
		}
	}
	t.Logf("Terraform created %d of %d names, the other writer %d", ours, n, n-ours)
	if ours == 0 {
		t.Error("Terraform created none of the names: the writers did not race the apply")
	}
}

// applyStarted reports whether Terraform has created a NodePool of the test.
func applyStarted(c *testenv.Cluster) bool {
	l, err := c.Dynamic.Resource(gvr).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		return false
	}
	for _, o := range l.Items {
		for _, e := range o.GetManagedFields() {
			if strings.HasPrefix(o.GetName(), "race-") && e.Manager == "terraform-provider-karpenter" {
				return true
			}
		}
	}
	return false
}
