package nodepool_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// editBetweenPlanAndApply changes the pool as `kubectl edit` would, after the plan was
// computed and before it is applied.
type editBetweenPlanAndApply struct {
	c     *testenv.Cluster
	name  string
	patch string
}

func (e editBetweenPlanAndApply) CheckPlan(ctx context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	_, err := e.c.Dynamic.Resource(gvr).Patch(ctx, e.name, types.MergePatchType, []byte(e.patch), metav1.PatchOptions{FieldManager: "kubectl-edit"})
	resp.Error = err
}

// A field another client changes between plan and apply is set back to the configuration by
// the update (with a warning naming it, which the crdresource tests assert).
func TestAccNodePoolChangedBetweenPlanAndApply(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-changed-after-plan"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{Config: config(c.KubeconfigPath, name, 10, "")},
			{
				Config: config(c.KubeconfigPath, name, 20, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					editBetweenPlanAndApply{c: c, name: name, patch: `{"spec":{"limits":{"cpu":"999"}}}`},
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkLive(c, name, []string{"spec", "weight"}, 20),
					checkLive(c, name, []string{"spec", "limits", "cpu"}, "200"),
				),
			},
		},
	})
}
