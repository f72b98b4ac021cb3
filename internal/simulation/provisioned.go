package simulation

import (
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// Provisioning is Karpenter's provisioning run to the round that places nothing more, as a
// prediction shows it. It is not a steady state: consolidation, drift and expiry are not
// emulated, so nodes a later disruption would replace are still there.
type Provisioning struct {
	// Rounds are the rounds that placed pods, the first one first.
	Rounds []RoundView `json:"rounds"`
	// Nodes are every node after the last round with all the pods bound to it (its Requested
	// is what its NodeClaim asked for at launch); HourlyCost their sum.
	Nodes      []simmodel.SimNode `json:"nodes"`
	HourlyCost float64            `json:"hourlyCost"`
	// Unschedulable are the pods still pending after the last round, with Karpenter's reason.
	Unschedulable []simmodel.Unschedulable `json:"unschedulable,omitempty"`
	// HitBound is set when MaxRounds rounds ran and the last still placed pods.
	HitBound bool `json:"hitBound,omitempty"`
}

// RoundView is one provisioning round: the nodes its NodeClaims launched (with the pods it
// bound to them), the pods it bound (to them and to nodes of earlier rounds) and the pods
// pending after it.
type RoundView struct {
	Round           int                `json:"round"`
	Nodes           []simmodel.SimNode `json:"nodes"`
	HourlyCost      float64            `json:"hourlyCost"`
	Placed          int                `json:"placed"`
	OnExistingNodes int                `json:"onExistingNodes"`
	Pending         int                `json:"pending"`
}

// ProvisionedLabel names the state honestly: after how many provisioning rounds, and that it
// is not a steady state.
func ProvisionedLabel(p *Provisioning) string {
	n := len(p.Rounds)
	word := "rounds"
	if n == 1 {
		word = "round"
	}
	bound := ""
	if p.HitBound {
		bound = fmt.Sprintf(", stopped at the bound of %d rounds", MaxRounds)
	}
	return fmt.Sprintf("after %d provisioning %s%s (not a steady state: no consolidation, drift or expiry runs between these rounds)", n, word, bound)
}

// PredictRounds is Predict run over Karpenter's provisioning rounds (Provision): round 1 is
// Predict's decision, each later round runs on the pods still pending with the nodes launched
// so far as the cluster's nodes.
func PredictRounds(s *analysis.Analyzer, in PredictionInput) (*Provisioning, error) {
	pr, err := prepare(s, in)
	if err != nil {
		return nil, err
	}
	p, err := Provision(pr.pin, MaxRounds)
	if err != nil {
		return nil, err
	}
	out := &Provisioning{HitBound: p.HitBound}
	byName := map[string]int{}
	for i, r := range p.Rounds {
		v := RoundView{Round: i + 1, Placed: r.Placed}
		for _, pods := range r.Result.ExistingNodePods {
			v.OnExistingNodes += len(pods)
		}
		launched := 0
		for _, nc := range r.Result.NodeClaims {
			if nc.Launch == nil {
				continue
			}
			n := pr.node(nc)
			// The scheduler binds relaxed copies of pods it relaxed; the launched node holds
			// the pods themselves, which the workload index knows.
			n.Pods = podCounts(r.Launched[launched].Pods, pr.of, pr.workloads)
			v.Nodes = append(v.Nodes, n)
			v.HourlyCost += n.HourlyPrice
			byName[r.Launched[launched].Name] = len(out.Nodes)
			out.Nodes = append(out.Nodes, n)
			launched++
		}
		v.Pending = len(r.Result.PodErrors)
		out.Rounds = append(out.Rounds, v)
		out.HourlyCost += v.HourlyCost
	}
	// A node's pods after the last round include those later rounds bound to it.
	for _, n := range p.Nodes {
		if i, ok := byName[n.Name]; ok {
			out.Nodes[i].Pods = podCounts(n.Pods, pr.of, pr.workloads)
		}
	}
	// The pods pending after the last round: the last round's reasons, and the pods of
	// NodeClaims nothing launched for.
	reason := map[types.UID]error{}
	for pod, err := range p.PendingErrors {
		reason[pod.UID] = err
	}
	errs := map[*corev1.Pod]error{}
	for _, q := range p.Pending {
		errs[q] = errors.New("all requested instance types were unavailable during launch")
		if err, ok := reason[q.UID]; ok {
			errs[q] = err
		}
	}
	out.Unschedulable = pendingByWorkload(errs, pr.of, pr.workloads)
	return out, nil
}
