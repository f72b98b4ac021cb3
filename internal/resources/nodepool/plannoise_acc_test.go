package nodepool_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// quietPlan fails when a planned change of addr shows what does not change: the default
// take_ownership_from list, or a status or id "known after apply" (a create returns no status,
// an update does not change it; the id is the name).
type quietPlan string

func (q quietPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != string(q) {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		if v := after["take_ownership_from"]; v != nil {
			resp.Error = fmt.Errorf("%s plans take_ownership_from = %v, want it unset", q, v)
			return
		}
		unknown, _ := rc.Change.AfterUnknown.(map[string]any)
		for _, a := range []string{"status", "id"} {
			if unknown[a] != nil {
				resp.Error = fmt.Errorf("%s plans %s as known after apply (%v)", q, a, rc.Change.Actions)
			}
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the plan", q)
}

// Issue 13 item 12: plans show only what changes. A create does not list the default
// take_ownership_from managers nor a status to come; an update keeps the status last read,
// also when the controller reported one; each apply leaves an empty plan.
func TestAccNodePoolPlansShowOnlyChanges(t *testing.T) {
	c := testenv.Get(t)
	name := "acc-quiet"
	addr := "karpenter_nodepool.test"
	setStatus := func() {
		// What Karpenter's controller would report; the test cluster runs none.
		obj := live(t, c, name)
		_ = unstructured.SetNestedSlice(obj.Object, []any{map[string]any{
			"type": "Ready", "status": "True", "reason": "Ready", "message": "", "lastTransitionTime": "2026-01-01T00:00:00Z",
		}}, "status", "conditions")
		if _, err := c.Dynamic.Resource(gvr).UpdateStatus(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("set status: %v", err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             checkGone(c, name),
		Steps: []resource.TestStep{
			{
				Config:           config(c.KubeconfigPath, name, 10, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{quietPlan(addr)}},
			},
			{
				PreConfig: setStatus,
				Config:    config(c.KubeconfigPath, name, 20, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate), quietPlan(addr),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "status.conditions.0.type", "Ready"),
					checkLive(c, name, []string{"spec", "weight"}, int64(20)),
				),
			},
		},
	})
}
