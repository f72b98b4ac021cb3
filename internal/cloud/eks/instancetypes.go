package eks

import (
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

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
	f, _ := familyOf(nc.AMIFamily)
	its = make(cloudprovider.InstanceTypes, 0, len(cat.Types))
	for i := range cat.Types {
		it, err := derive(cat, &cat.Types[i], region, f, nc, o)
		if err != nil {
			dropped = append(dropped, Dropped{Name: cat.Types[i].Name, Reason: err.Error()})
			continue
		}
		its = append(its, it)
	}
	return its, dropped, nil
}

func derive(cat *catalog.Catalog, t *catalog.InstanceType, region string, f family, nc NodeClass, o Options) (*cloudprovider.InstanceType, error) {
	capacity, err := capacity(t, f, nc, o)
	if err != nil {
		return nil, err
	}
	ov, err := overhead(t, f, nc, o, capacity)
	if err != nil {
		return nil, err
	}
	reqs := requirements(t, region, f)
	if reqs.Get(corev1.LabelOSStable).Has(string(corev1.Windows)) {
		// The VPC resource controller's secondary IPs of the primary ENI, which
		// pods on Windows nodes take their addresses from.
		ips := int64(0)
		if t.ENI != nil {
			ips = t.ENI.IPv4PerInterface - 1
		}
		capacity[ResourcePrivateIPv4Address] = count(ips)
	}
	return &cloudprovider.InstanceType{
		Name:         t.Name,
		Requirements: reqs,
		Capacity:     capacity,
		Overhead:     ov,
		Offerings:    offerings(cat, t, region),
	}, nil
}
