package eks

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/karpenter-provider-aws/pkg/operator/options"
	"github.com/aws/karpenter-provider-aws/pkg/providers/instancetype"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/utils/resources"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// Dropped is an instance type the derivation could not present, and why (for
// reports: a type left out must be said to be left out).
type Dropped struct {
	Name   string
	Reason string
}

// InstanceTypes returns every instance type of the embedded catalog for the
// region as Karpenter's AWS provider would present them for the node class,
// with the controller's default options. With the defaults no type is dropped.
func InstanceTypes(region string, nc NodeClass) (cloudprovider.InstanceTypes, error) {
	its, dropped, err := Derive(catalog.Default(), region, nc, DefaultOptions())
	if err != nil {
		return nil, err
	}
	if len(dropped) > 0 {
		// Only options other than the defaults drop types (reserved ENIs).
		return nil, fmt.Errorf("%d instance types could not be derived, first %s: %s", len(dropped), dropped[0].Name, dropped[0].Reason)
	}
	return its, nil
}

// Derive is InstanceTypes over a given catalog and options. An invalid node
// class or options fail with every problem at once, each at its EC2NodeClass
// path; a type the catalog lacks facts for is returned in dropped.
func Derive(cat *catalog.Catalog, region string, nc NodeClass, o Options) (its cloudprovider.InstanceTypes, dropped []Dropped, err error) {
	errs := nc.check()
	if region == "" {
		errs = append(errs, "region is empty; give an AWS region such as us-east-1")
	}
	if o.VMMemoryOverheadPercent < 0 || o.VMMemoryOverheadPercent >= 1 {
		errs = append(errs, fmt.Sprintf("vm-memory-overhead-percent %g is outside [0, 1)", o.VMMemoryOverheadPercent))
	}
	if o.ReservedENIs < 0 {
		errs = append(errs, fmt.Sprintf("reserved-enis %d is negative", o.ReservedENIs))
	}
	if len(errs) > 0 {
		return nil, nil, errors.New("invalid EC2NodeClass or options: " + strings.Join(errs, "; "))
	}
	ctx := options.ToContext(context.Background(), &options.Options{VMMemoryOverheadPercent: o.VMMemoryOverheadPercent, ReservedENIs: o.ReservedENIs})
	its = make(cloudprovider.InstanceTypes, 0, len(cat.Types))
	for i := range cat.Types {
		t := &cat.Types[i]
		if t.ENI == nil && o.ReservedENIs != 0 {
			// Its density stands in for ENI limits: nothing to take ENIs off.
			dropped = append(dropped, Dropped{Name: t.Name, Reason: fmt.Sprintf("the catalog has no ENI limits for it (only its default pod density), so %d reserved ENIs cannot be taken off", o.ReservedENIs)})
			continue
		}
		if t.ENI == nil && t.ENILimitedPods == nil {
			dropped = append(dropped, Dropped{Name: t.Name, Reason: "the catalog has neither ENI limits nor a pod density for it"})
			continue
		}
		its = append(its, derive(ctx, cat, t, region, nc))
	}
	return its, dropped, nil
}

// derive is the AWS provider's NewInstanceType on the catalog's facts, with
// the node class's settings, less what the offline catalog cannot know or
// knows better:
//   - no zones: upstream's zone requirement (In the zones of the node class's
//     subnets where the type is offered) is removed rather than left empty,
//     which would match nothing; offerings are regional;
//   - no capacity reservations, EFA-only network interfaces or subnet zone IDs;
//   - the pod-ENI count and the Windows private IPv4 capacity come from the
//     catalog's VPC limits (vpc_limits.json, main's table of 2026-08-06), not
//     from the older one compiled into v1.14.1 (56 types differ; see
//     docs-notes/eks.md).
func derive(ctx context.Context, cat *catalog.Catalog, t *catalog.InstanceType, region string, nc NodeClass) *cloudprovider.InstanceType {
	k := nc.Kubelet
	bdms, policy := nc.upstream()
	it := instancetype.NewInstanceType(ctx, ec2Info(t), region, nil, nil, bdms, policy, nil,
		k.MaxPods, k.PodsPerCore, k.KubeReserved, k.SystemReserved, k.EvictionHard, k.EvictionSoft, nc.familyName(), nil)
	delete(it.Requirements, corev1.LabelTopologyZone)
	branches, ips := int64(0), int64(0)
	if t.ENI != nil {
		if t.ENI.Trunking {
			branches = t.ENI.BranchInterfaces
		}
		ips = t.ENI.IPv4PerInterface - 1
	}
	it.Capacity[ResourceAWSPodENI] = *resources.Quantity(fmt.Sprint(branches))
	if _, windows := it.Capacity[ResourcePrivateIPv4Address]; windows {
		it.Capacity[ResourcePrivateIPv4Address] = *resources.Quantity(fmt.Sprint(ips))
	}
	it.Offerings = offerings(cat, t, region)
	return it
}

// Options are the Karpenter controller settings (not the node class) that the
// derivation depends on.
type Options struct {
	// VMMemoryOverheadPercent is --vm-memory-overhead-percent (default 0.075):
	// the share of memory the hypervisor and firmware keep, taken off capacity
	// until Karpenter has seen a real node of the type.
	VMMemoryOverheadPercent float64
	// ReservedENIs is --reserved-enis (default 0): ENIs the VPC CNI does not use
	// for pods (custom networking).
	ReservedENIs int
}

// DefaultOptions are the controller defaults, the ones upstream's docs use.
func DefaultOptions() Options { return Options{VMMemoryOverheadPercent: 0.075} }
