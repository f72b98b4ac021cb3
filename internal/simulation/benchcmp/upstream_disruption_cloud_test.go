package benchcmp

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/samber/lo"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/clock"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/cloudprovider/fake"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/test"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/Azure/karpenter-provider-azure/pkg/providers/allocationstrategy"
	"github.com/Azure/karpenter-provider-azure/pkg/utils/zones"
)

// nodeClassHashAnnotation stands for the providers' node class hash on a NodeClaim
// (karpenter.azure.com/aksnodeclass-hash, karpenter.k8s.aws/ec2nodeclass-hash): a NodeClaim
// whose value is not the class's current one has drifted, as both providers' IsDrifted say.
const nodeClassHashAnnotation = "benchcmp.karpenter-iac/nodeclass-hash"

// launchCloud is upstream's fake cloud provider carrying the scenario's instance types per
// NodePool, whose Create makes the cloud's own launch choice: the Azure provider's allocation
// strategy on AKS, the AWS provider's filters and fleet order on EKS (both as compare-upstream
// runs them), where the fake would take the cheapest offering. Its IsDrifted reports node class
// drift from the hash annotation.
type launchCloud struct {
	*fake.CloudProvider
	sc    scenario
	clock clock.Clock

	mu        sync.Mutex
	created   map[string]*karpv1.NodeClaim
	classHash int
	// ties counts the launches that met offerings the provider picks among at random.
	ties int
}

func newLaunchCloud(sc scenario) *launchCloud {
	cp := fake.NewCloudProvider()
	cp.Reset()
	for pool, its := range sc.its {
		cp.InstanceTypesForNodePool[pool] = its
	}
	return &launchCloud{CloudProvider: cp, sc: sc, created: map[string]*karpv1.NodeClaim{}}
}

// azureLaunch is the Azure provider's Create choice: the allocation strategy's stages
// (FilterInstanceOfferings) on the candidates resolveInstanceTypes keeps. Its rank shuffles
// the zones of offerings equal in price, capacity type and placement scope: of those the
// first zone by name is taken, as the emulation takes it, and tied says there were several.
func azureLaunch(ctx context.Context, its []*cloudprovider.InstanceType, nc *karpv1.NodeClaim) (*cloudprovider.InstanceType, *cloudprovider.Offering, bool) {
	reqs := kscheduling.NewNodeSelectorRequirementsWithMinValues(nc.Spec.Requirements...)
	ranked := allocationstrategy.NewProvider().FilterInstanceOfferings(ctx, allocationstrategy.NewInstanceOfferings(azureCandidates(its, reqs, nc.Spec.Resources.Requests)), reqs)
	if len(ranked) == 0 || ranked[0].InstanceType == nil || len(ranked[0].Offerings) == 0 {
		return nil, nil, false
	}
	best := ranked[0].Offerings[0]
	pick, n := best, 0
	for _, o := range ranked[0].Offerings {
		if o.Price == best.Price && o.CapacityType() == best.CapacityType() && zones.PlacementScopeForOffering(o) == zones.PlacementScopeForOffering(best) {
			n++
			if o.Zone() < pick.Zone() {
				pick = o
			}
		}
	}
	return ranked[0].InstanceType, pick, n > 1
}

// byFirstName takes, of the AWS fleet's equally priced instance types, the first by name (the
// fleet picks one of them; the emulation takes the first by name), with its offering.
func byFirstName(its []*cloudprovider.InstanceType, it *cloudprovider.InstanceType, o *cloudprovider.Offering, ties []string) (*cloudprovider.InstanceType, *cloudprovider.Offering, bool) {
	if it == nil || len(ties) < 2 || ties[0] == it.Name {
		return it, o, len(ties) > 1
	}
	for _, cand := range its {
		if cand.Name != ties[0] {
			continue
		}
		for _, co := range cand.Offerings.Available() {
			if co.Price == o.Price && co.CapacityType() == o.CapacityType() {
				return cand, co, true
			}
		}
	}
	return it, o, true
}

// launchChoice names each side's launch choice for the printed header.
func launchChoice(eks bool) string {
	if eks {
		return "the AWS provider's (instance filters, truncation, fleet lowest price; equal prices: first by name) on both sides"
	}
	return "the Azure provider's allocation strategy (equally ranked zones: first by name) on both sides"
}

func (c *launchCloud) Create(ctx context.Context, nc *karpv1.NodeClaim) (*karpv1.NodeClaim, error) {
	its := c.sc.its[nc.Labels[karpv1.NodePoolLabelKey]]
	var it *cloudprovider.InstanceType
	var o *cloudprovider.Offering
	tied := false
	if c.sc.eks {
		var ties []string
		it, o, ties = awsLaunch(its, nc)
		it, o, tied = byFirstName(its, it, o, ties)
	} else {
		it, o, tied = azureLaunch(ctx, its, nc)
	}
	if tied {
		c.mu.Lock()
		c.ties++
		c.mu.Unlock()
	}
	if it == nil || o == nil {
		return nil, cloudprovider.NewInsufficientCapacityError(fmt.Errorf("no instance type of pool %s fits NodeClaim %s", nc.Labels[karpv1.NodePoolLabelKey], nc.Name))
	}
	labels := map[string]string{}
	for key, r := range it.Requirements {
		if r.Operator() == corev1.NodeSelectorOpIn {
			labels[key] = r.Values()[0]
		}
	}
	for _, r := range o.Requirements {
		labels[r.Key] = r.Any()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	created := &karpv1.NodeClaim{
		ObjectMeta: metav1.ObjectMeta{
			Name:        nc.Name,
			Labels:      lo.Assign(labels, nc.Labels),
			Annotations: lo.Assign(nc.Annotations, map[string]string{nodeClassHashAnnotation: strconv.Itoa(c.classHash)}),
		},
		Spec: *nc.Spec.DeepCopy(),
		Status: karpv1.NodeClaimStatus{
			ProviderID:  test.RandomProviderID(),
			Capacity:    lo.PickBy(it.Capacity, func(_ corev1.ResourceName, v resource.Quantity) bool { return !resources.IsZero(v) }),
			Allocatable: lo.PickBy(it.Allocatable(), func(_ corev1.ResourceName, v resource.Quantity) bool { return !resources.IsZero(v) }),
		},
	}
	c.created[created.Status.ProviderID] = created
	return created, nil
}

func (c *launchCloud) Get(_ context.Context, id string) (*karpv1.NodeClaim, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if nc, ok := c.created[id]; ok {
		return nc.DeepCopy(), nil
	}
	return nil, cloudprovider.NewNodeClaimNotFoundError(fmt.Errorf("no NodeClaim with provider ID %s", id))
}

func (c *launchCloud) List(context.Context) ([]*karpv1.NodeClaim, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*karpv1.NodeClaim, 0, len(c.created))
	for _, nc := range c.created {
		out = append(out, nc.DeepCopy())
	}
	return out, nil
}

func (c *launchCloud) Delete(_ context.Context, nc *karpv1.NodeClaim) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.created[nc.Status.ProviderID]; !ok {
		return cloudprovider.NewNodeClaimNotFoundError(fmt.Errorf("no NodeClaim with provider ID %s", nc.Status.ProviderID))
	}
	delete(c.created, nc.Status.ProviderID)
	return nil
}

// IsDrifted is the providers' node class hash check.
func (c *launchCloud) IsDrifted(_ context.Context, nc *karpv1.NodeClaim) (cloudprovider.DriftReason, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := nc.Annotations[nodeClassHashAnnotation]; ok && v != strconv.Itoa(c.classHash) {
		return "NodeClassDrift", nil
	}
	return "", nil
}

// bumpNodeClass changes the node class's hash, as an edit of the AKSNodeClass or EC2NodeClass
// would.
func (c *launchCloud) bumpNodeClass() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.classHash++
}

// price is a node's hourly list price from the scenario's catalog.
func (c *launchCloud) price(k nodeKey) float64 {
	for _, it := range c.sc.its[k.pool] {
		if it.Name == k.instanceType {
			if o := offeringOf(it, k.capacityType, k.zone); o != nil {
				return o.Price
			}
		}
	}
	return 0
}
