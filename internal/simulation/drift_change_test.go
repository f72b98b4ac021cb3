package simulation

import (
	"context"
	"strings"
	"testing"
)

// A change counts only the nodes it drifts: against a pool that already drifts them, the same
// family change drifts nothing more.
func TestChangeDrift(t *testing.T) {
	snap := impactCluster(4)
	pool := func(family string) Input {
		text := strings.Replace(strings.Replace(impactPool, "BUDGETS", "[{nodes: '1'}]", 1), "values: [E]", "values: ["+family+"]", 1)
		return Input{Region: "westeurope", NodePools: []map[string]any{body(t, text)}}
	}
	pools, already, err := ChangeDrift(context.Background(), testSolver, snap, pool("D"), pool("E"), impactStart)
	if err != nil {
		t.Fatal(err)
	}
	if len(pools) != 1 || pools[0].Drifted != 4 || pools[0].Rounds != 4 || already != 0 {
		t.Errorf("D to E: %+v, %d already; want 4 drifted in 4 rounds", pools, already)
	}
	pools, already, err = ChangeDrift(context.Background(), testSolver, snap, pool("E"), pool("F"), impactStart)
	if err != nil {
		t.Fatal(err)
	}
	if len(pools) != 0 || already != 4 {
		t.Errorf("E to F: %+v, %d already; want none newly, 4 already", pools, already)
	}
}
