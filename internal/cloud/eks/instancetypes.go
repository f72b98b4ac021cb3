package eks

import (
	"errors"
	"fmt"
	"strings"

	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// InstanceTypes returns every instance type of the embedded catalog for the
// region as Karpenter's AWS provider would present them for the node class,
// with the controller's default options.
func InstanceTypes(region string, nc NodeClass) (cloudprovider.InstanceTypes, error) {
	return Derive(catalog.Default(), region, nc, DefaultOptions())
}

// Derive is InstanceTypes over a given catalog and options. An invalid node
// class gets every problem at once, each at its EC2NodeClass path.
func Derive(cat *catalog.Catalog, region string, nc NodeClass, o Options) (cloudprovider.InstanceTypes, error) {
	if errs := nc.check(); len(errs) > 0 {
		return nil, errors.New("invalid EC2NodeClass: " + strings.Join(errs, "; "))
	}
	if region == "" {
		return nil, fmt.Errorf("region is empty; give an AWS region such as us-east-1")
	}
	if o.VMMemoryOverheadPercent < 0 || o.VMMemoryOverheadPercent >= 1 {
		return nil, fmt.Errorf("vm-memory-overhead-percent %g is outside [0, 1)", o.VMMemoryOverheadPercent)
	}
	f, _ := familyOf(nc.AMIFamily)
	out := make(cloudprovider.InstanceTypes, 0, len(cat.Types))
	var errs []string
	for i := range cat.Types {
		it, err := derive(cat, &cat.Types[i], region, f, nc, o)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		out = append(out, it)
	}
	if len(errs) > 0 {
		return nil, errors.New(strings.Join(errs, "; "))
	}
	return out, nil
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
	return &cloudprovider.InstanceType{
		Name:         t.Name,
		Requirements: requirements(t, region),
		Capacity:     capacity,
		Overhead:     ov,
		Offerings:    offerings(cat, t, region),
	}, nil
}
