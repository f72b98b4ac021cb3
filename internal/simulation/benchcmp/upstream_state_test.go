package benchcmp

import (
	"context"
	"math"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	fakecr "sigs.k8s.io/controller-runtime/pkg/client/fake"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/events"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/Azure/karpenter-provider-azure/pkg/providers/allocationstrategy"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simulation/karpenter"
)

// upstreamRun is one round of Karpenter's scheduler: the decision as the comparator compares
// it, and the NodeClaims with what launched for each, for the next round.
type upstreamRun struct {
	decision decision
	launched []*karpenter.NodeClaim
	// existing holds the pods bound to each existing node, by name.
	existing map[string][]*corev1.Pod
}

// upstreamRound runs Karpenter's scheduler as the provisioner does on a cluster holding nodes
// (state nodes built by the cluster state from their Node objects and bound pods, and the
// pods in the client the topology lists), then the provisioner's truncation of the options
// and its NodeClaim construction (ToNodeClaim), then the cloud provider's launch. With no
// nodes it is upstreamDecision.
func upstreamRound(sc scenario, nodes []karpenter.ExistingNode, pods []*corev1.Pod) (upstreamRun, error) {
	ctx := upstreamContext()
	nodePools := make([]*karpv1.NodePool, len(sc.pools))
	copy(nodePools, sc.pools)
	orderByWeight(nodePools)
	// The cluster state lists a node's pods by spec.nodeName, as Karpenter's operator
	// indexes them.
	kube := fakecr.NewClientBuilder().WithIndex(&corev1.Pod{}, "spec.nodeName", func(o client.Object) []string {
		return []string{o.(*corev1.Pod).Spec.NodeName}
	}).Build()
	clk := clock.RealClock{}
	cluster := state.NewCluster(clk, kube, offlineCloud{})
	stateNodes, err := upstreamStateNodes(ctx, kube, cluster, nodes)
	if err != nil {
		return upstreamRun{}, err
	}
	batch := make([]*corev1.Pod, len(pods))
	for i, p := range pods {
		batch[i] = p.DeepCopy()
	}
	daemons := make([]*corev1.Pod, len(sc.daemons))
	for i, p := range sc.daemons {
		daemons[i] = p.DeepCopy()
	}
	topology, err := scheduling.NewTopology(ctx, kube, cluster, stateNodes, nodePools, sc.its, batch)
	if err != nil {
		return upstreamRun{}, err
	}
	opts := []scheduling.Options{}
	s := scheduling.NewScheduler(ctx, kube, nodePools, cluster, stateNodes, topology, sc.its, daemons,
		events.NewRecorder(&record.FakeRecorder{}), clk, nil, nil, opts...)
	results, err := s.Solve(ctx, batch)
	if err != nil {
		return upstreamRun{}, err
	}
	target, rank := targetOf(results.NewNodeClaims)
	results = truncateInstanceTypes(ctx, results, scheduling.MaxInstanceTypes) // upstream's, memoised
	out := upstreamRun{decision: decision{unschedulable: len(results.PodErrors), target: target}}
	for _, en := range results.ExistingNodes {
		if len(en.Pods) > 0 {
			if out.existing == nil {
				out.existing = map[string][]*corev1.Pod{}
			}
			out.existing[en.Name()] = en.Pods
		}
	}
	d := &out.decision
	for _, nc := range results.NewNodeClaims {
		claim := nc.ToNodeClaim()
		reqs := kscheduling.NewNodeSelectorRequirementsWithMinValues(claim.Spec.Requirements...)
		launched := &karpenter.NodeClaim{NodePool: nc.NodePoolName, Pods: nc.Pods, Requirements: reqs}
		out.launched = append(out.launched, launched)
		if sc.eks {
			it, o, ties := awsLaunch(sc.its[nc.NodePoolName], claim)
			if it == nil {
				d.claims = append(d.claims, newLaunched(nc.NodePoolName, "(none)", "", math.NaN(), nc.Pods))
				continue
			}
			launched.Launch = &karpenter.Launch{InstanceType: it, Offering: o}
			d.claims = append(d.claims, newLaunched(nc.NodePoolName, strings.Join(ties, "|"), o.CapacityType(), o.Price, nc.Pods))
			d.target.Claims[rank[nc]].InstanceType = it.Name
			continue
		}
		candidates := azureCandidates(sc.its[nc.NodePoolName], reqs, claim.Spec.Resources.Requests)
		sel := allocationstrategy.NewProvider().Allocate(context.Background(), candidates, reqs)
		if sel == nil {
			d.claims = append(d.claims, newLaunched(nc.NodePoolName, "(none)", "", math.NaN(), nc.Pods))
			continue
		}
		launched.Launch = &karpenter.Launch{InstanceType: sel.InstanceType, Offering: sel.Offering}
		d.claims = append(d.claims, newLaunched(nc.NodePoolName, sel.InstanceType.Name, sel.CapacityType(), sel.Offering.Price, nc.Pods))
		d.target.Claims[rank[nc]].InstanceType = sel.InstanceType.Name
	}
	d.finish()
	return out, nil
}

// upstreamStateNodes puts each node, initialized, and its bound pods into the client and the
// cluster state, and returns the state nodes the provisioner passes its scheduler
// (cluster.DeepCopyNodes().Active()).
func upstreamStateNodes(ctx context.Context, kube client.Client, cluster *state.Cluster, nodes []karpenter.ExistingNode) ([]*state.StateNode, error) {
	if len(nodes) == 0 {
		return nil, nil
	}
	for _, n := range nodes {
		labels := map[string]string{karpv1.NodeInitializedLabelKey: "true", karpv1.NodeRegisteredLabelKey: "true"}
		for k, v := range n.Labels {
			labels[k] = v
		}
		node := &corev1.Node{}
		node.Name, node.Labels = n.Name, labels
		node.Spec.ProviderID, node.Spec.Taints = "offline://"+n.Name, n.Taints
		node.Status.Capacity, node.Status.Allocatable = n.Capacity.DeepCopy(), n.Allocatable.DeepCopy()
		if err := kube.Create(ctx, node); err != nil {
			return nil, err
		}
		if err := cluster.UpdateNode(ctx, node); err != nil {
			return nil, err
		}
		for _, p := range append(append([]*corev1.Pod{}, n.Pods...), n.DaemonSetPods...) {
			bound := p.DeepCopy()
			bound.ResourceVersion = ""
			bound.Spec.NodeName = n.Name
			bound.Status.Phase = corev1.PodRunning
			if err := kube.Create(ctx, bound); err != nil {
				return nil, err
			}
			if err := cluster.UpdatePod(ctx, bound); err != nil {
				return nil, err
			}
		}
	}
	return cluster.DeepCopyNodes().Active(), nil
}
