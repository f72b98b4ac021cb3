package simulate

import (
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/simreport"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation"
)

// driftLines are the text report's lines on what the change does to the running cluster.
func driftLines(d *ClusterDrift) []string {
	if d == nil {
		return nil
	}
	res := d.Result
	lines := []string{fmt.Sprintf("Against the running cluster (%s):", d.State),
		fmt.Sprintf("%d of the %d NodeClaims of the input's NodePools drift (Karpenter's drift check; their replacement is not simulated yet)", len(res.Drifted), res.Checked)}
	for _, p := range d.Pools {
		lines = append(lines, "  "+poolDriftText(p))
		for _, b := range p.Blocked {
			until := "until its terminationGracePeriod forces the drain"
			if b.ForGood {
				until = "for good: no terminationGracePeriod"
			}
			lines = append(lines, fmt.Sprintf("    blocked: %s (%s): %s, %s", b.Node, b.NodeClaim, b.Why, until))
		}
	}
	return lines
}

// poolDriftText says how many of a pool's nodes drift, why, and at what pace.
func poolDriftText(p simulation.PoolDrift) string {
	pace := fmt.Sprintf("budgets allow %d at a time now, %d at most within 31 days: %s", p.NowAtOnce, p.AtOnce, simreport.PluralWord(p.Rounds, "replacement round", "replacement rounds"))
	switch {
	case p.AtOnce == 0:
		pace = "budgets allow none to be replaced within 31 days: the drifted nodes stay"
	case p.AllAtOnce():
		pace = fmt.Sprintf("budgets let all %d go at once now", p.Drifted)
	}
	return fmt.Sprintf("NodePool %s: %d of %d nodes drift; %s", p.NodePool, p.Drifted, p.Nodes, pace)
}

// reasons counts the drifted NodeClaims per reason, in name order: "RequirementsDrifted 3".
func reasons(res *simulation.DriftResult) string {
	n := map[cloudprovider.DriftReason]int{}
	for _, d := range res.Drifted {
		n[d.Reason]++
	}
	var out []string
	for r, c := range n {
		out = append(out, fmt.Sprintf("%s %d", r, c))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// jsonDrift is the JSON layout of ClusterDrift.
type jsonDrift struct {
	State       string            `json:"state"`
	Checked     int               `json:"checked"`
	Nodes       []jsonDriftedNode `json:"nodes"`
	Pools       []jsonPoolDrift   `json:"pools"`
	Assumptions []string          `json:"assumptions"`
}

type jsonDriftedNode struct {
	NodeClaim    string `json:"nodeClaim"`
	Node         string `json:"node"`
	Pool         string `json:"pool"`
	InstanceType string `json:"instanceType"`
	CapacityType string `json:"capacityType"`
	Zone         string `json:"zone"`
	Reason       string `json:"reason"`
}

type jsonPoolDrift struct {
	Pool      string                   `json:"pool"`
	Nodes     int                      `json:"nodes"`
	Drifted   int                      `json:"drifted"`
	NowAtOnce int                      `json:"nowAtOnce"`
	AtOnce    int                      `json:"atOnce"`
	Rounds    int                      `json:"rounds"`
	AllAtOnce bool                     `json:"allAtOnce"`
	Blocked   []simulation.BlockedNode `json:"blocked"`
}

func toJSONDrift(d *ClusterDrift) *jsonDrift {
	if d == nil {
		return nil
	}
	out := &jsonDrift{State: d.State, Checked: d.Result.Checked, Nodes: []jsonDriftedNode{}, Pools: []jsonPoolDrift{}, Assumptions: nonNil(d.Result.Assumptions)}
	for _, n := range d.Result.Drifted {
		out.Nodes = append(out.Nodes, jsonDriftedNode{NodeClaim: n.NodeClaim, Node: n.Node, Pool: n.NodePool, InstanceType: n.InstanceType,
			CapacityType: n.CapacityType, Zone: n.Zone, Reason: string(n.Reason)})
	}
	for _, p := range d.Pools {
		jp := jsonPoolDrift{Pool: p.NodePool, Nodes: p.Nodes, Drifted: p.Drifted, NowAtOnce: p.NowAtOnce, AtOnce: p.AtOnce, Rounds: p.Rounds, AllAtOnce: p.AllAtOnce(), Blocked: p.Blocked}
		if jp.Blocked == nil {
			jp.Blocked = []simulation.BlockedNode{}
		}
		out.Pools = append(out.Pools, jp)
	}
	return out
}
