package benchcmp

import (
	"context"
	"errors"
	"math"

	"github.com/awslabs/operatorpkg/status"
	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	fakecr "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/log"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/events"
	"sigs.k8s.io/karpenter/pkg/operator/injection"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"
)

func init() { log.SetLogger(logr.Discard()) }

// offlineCloud is the cloud provider the cluster state needs: it is never asked to launch or
// list anything, because the scheduler is driven with no existing nodes.
type offlineCloud struct{ types []*cloudprovider.InstanceType }

var errOffline = errors.New("offline")

func (c offlineCloud) Create(context.Context, *karpv1.NodeClaim) (*karpv1.NodeClaim, error) {
	return nil, errOffline
}
func (c offlineCloud) Delete(context.Context, *karpv1.NodeClaim) error { return errOffline }
func (c offlineCloud) Get(context.Context, string) (*karpv1.NodeClaim, error) {
	return nil, errOffline
}
func (c offlineCloud) List(context.Context) ([]*karpv1.NodeClaim, error) { return nil, nil }
func (c offlineCloud) GetInstanceTypes(context.Context, *karpv1.NodePool) ([]*cloudprovider.InstanceType, error) {
	return c.types, nil
}
func (c offlineCloud) IsDrifted(context.Context, *karpv1.NodeClaim) (cloudprovider.DriftReason, error) {
	return "", nil
}
func (c offlineCloud) RepairPolicies() []cloudprovider.RepairPolicy { return nil }
func (c offlineCloud) Name() string                                 { return "offline" }
func (c offlineCloud) GetSupportedNodeClasses() []status.Object     { return nil }

// upstreamContext carries the operator options Karpenter's scheduler reads (defaults: strict
// minValues, no reserved capacity), as the upstream benchmark sets them.
func upstreamContext() context.Context {
	ctx := injection.WithControllerName(context.Background(), "provisioner")
	return options.ToContext(ctx, &options.Options{MinValuesPolicy: options.MinValuesPolicyStrict, IgnoreDRARequests: true})
}

// upstreamResult is what Karpenter would launch: per NodeClaim the cheapest offering of its
// instance type options compatible with its requirements (the Azure provider launches the
// lowest-priced offering), summed.
type upstreamResult struct {
	cost          float64
	nodes         int
	unschedulable int
}

// runUpstream schedules pods as Karpenter's provisioner does after listing pending pods:
// NodePools ordered by weight, a topology over them, a scheduler, Solve.
func runUpstream(ctx context.Context, pools []*karpv1.NodePool, its []*cloudprovider.InstanceType, pods []*corev1.Pod) (upstreamResult, error) {
	nodePools := make([]*karpv1.NodePool, len(pools))
	copy(nodePools, pools)
	orderByWeight(nodePools)
	byPool := map[string][]*cloudprovider.InstanceType{}
	for _, np := range nodePools {
		byPool[np.Name] = its
	}
	client := fakecr.NewFakeClient()
	clk := clock.RealClock{}
	cluster := state.NewCluster(clk, client, offlineCloud{its})
	batch := make([]*corev1.Pod, len(pods))
	copy(batch, pods) // Solve sorts its argument
	topology, err := scheduling.NewTopology(ctx, client, cluster, nil, nodePools, byPool, batch)
	if err != nil {
		return upstreamResult{}, err
	}
	s := scheduling.NewScheduler(ctx, client, nodePools, cluster, nil, topology, byPool, nil,
		events.NewRecorder(&record.FakeRecorder{}), clk, nil, nil)
	results, err := s.Solve(ctx, batch)
	if err != nil {
		return upstreamResult{}, err
	}
	out := upstreamResult{unschedulable: len(results.PodErrors)}
	for _, nc := range results.NewNodeClaims {
		price := math.Inf(1)
		for _, it := range nc.InstanceTypeOptions {
			for _, of := range it.Offerings {
				if of.Available && of.Price < price && nc.Requirements.IsCompatible(of.Requirements, kscheduling.AllowUndefinedWellKnownLabels) {
					price = of.Price
				}
			}
		}
		if math.IsInf(price, 1) {
			return upstreamResult{}, errors.New("a NodeClaim has no compatible offering")
		}
		out.cost += price
		out.nodes++
	}
	return out, nil
}

// orderByWeight is sigs.k8s.io/karpenter/pkg/utils/nodepool.OrderByWeight: weight descending,
// then name descending.
func orderByWeight(nps []*karpv1.NodePool) {
	w := func(np *karpv1.NodePool) int32 {
		if np.Spec.Weight == nil {
			return 0
		}
		return *np.Spec.Weight
	}
	for i := 1; i < len(nps); i++ {
		for j := i; j > 0; j-- {
			a, b := nps[j-1], nps[j]
			if w(a) > w(b) || (w(a) == w(b) && a.Name > b.Name) {
				break
			}
			nps[j-1], nps[j] = b, a
		}
	}
}
