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
	"sigs.k8s.io/karpenter/pkg/test"
	kscheduling "sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/Azure/karpenter-provider-azure/pkg/providers/allocationstrategy"
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
}

func newLaunchCloud(sc scenario) *launchCloud {
	cp := fake.NewCloudProvider()
	cp.Reset()
	for pool, its := range sc.its {
		cp.InstanceTypesForNodePool[pool] = its
	}
	return &launchCloud{CloudProvider: cp, sc: sc, created: map[string]*karpv1.NodeClaim{}}
}

// launchChoice names each side's launch choice for the printed header.
func launchChoice(eks bool) string {
	if eks {
		return "the AWS provider's (instance filters, truncation, fleet lowest price) on both sides"
	}
	return "the Azure provider's allocation strategy on both sides"
}

func (c *launchCloud) Create(ctx context.Context, nc *karpv1.NodeClaim) (*karpv1.NodeClaim, error) {
	its := c.sc.its[nc.Labels[karpv1.NodePoolLabelKey]]
	var it *cloudprovider.InstanceType
	var o *cloudprovider.Offering
	if c.sc.eks {
		it, o, _ = awsLaunch(its, nc)
	} else {
		reqs := kscheduling.NewNodeSelectorRequirementsWithMinValues(nc.Spec.Requirements...)
		if sel := allocationstrategy.NewProvider().Allocate(ctx, azureCandidates(its, reqs, nc.Spec.Resources.Requests), reqs); sel != nil {
			it, o = sel.InstanceType, sel.Offering
		}
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
