package crdresource

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func stringList(ss ...string) types.List {
	elems := make([]attr.Value, len(ss))
	for i, s := range ss {
		elems[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, elems)
}

// An unset take_ownership_from plans as null (not the default list in every plan), except over
// a state that holds the default list, as earlier versions wrote it: same meaning, no change.
func TestTakeOwnershipFromUnsetPlansNull(t *testing.T) {
	defaults := stringList(DefaultTakeOwnershipFrom...)
	cases := []struct {
		name                string
		config, state, want types.List
	}{
		{"create", types.ListNull(types.StringType), types.ListNull(types.StringType), types.ListNull(types.StringType)},
		{"state of an earlier version", types.ListNull(types.StringType), defaults, defaults},
		{"custom list removed", types.ListNull(types.StringType), stringList("helm"), types.ListNull(types.StringType)},
		{"set", stringList("kubectl"), defaults, stringList("kubectl")},
		{"opt out", stringList(), types.ListNull(types.StringType), stringList()},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := planmodifier.ListRequest{ConfigValue: tc.config, StateValue: tc.state, PlanValue: types.ListUnknown(types.StringType)}
			if !tc.config.IsNull() {
				req.PlanValue = tc.config
			}
			resp := &planmodifier.ListResponse{PlanValue: req.PlanValue}
			nullMeansDefault{}.PlanModifyList(context.Background(), req, resp)
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("planned %v, want %v", resp.PlanValue, tc.want)
			}
		})
	}
}
