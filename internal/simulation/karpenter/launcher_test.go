package karpenter

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
)

// lastOption launches the last of a NodeClaim's options. They come ordered by price, so that
// is the dearest, unlike any real allocation strategy. A launch that follows it came from
// the pool's launcher, not from a built-in choice.
type lastOption struct{ calls int }

func (l *lastOption) Launch(options []*cloudprovider.InstanceType, reqs scheduling.Requirements, _ corev1.ResourceList, _ map[*cloudprovider.InstanceType]bool) (*cloudprovider.InstanceType, []*cloudprovider.Offering) {
	l.calls++
	for i := len(options) - 1; i >= 0; i-- {
		if offs := options[i].Offerings.Available().Compatible(reqs); len(offs) > 0 {
			return options[i], []*cloudprovider.Offering{offs[0]}
		}
	}
	return nil, nil
}

func (l *lastOption) Rank(c []cloud.InstanceOfferings) []cloud.InstanceOfferings { return c }

// Each pool launches through its own cloud's launcher; a pool without one launches nothing.
func TestEachPoolLaunchesThroughItsLauncher(t *testing.T) {
	its := westeurope()
	pods := []*corev1.Pod{pod("a", 0, "500m")}
	custom := &lastOption{}
	in := func(l cloud.Launcher) Input {
		in := Input{NodePools: []*karpv1.NodePool{pool("general")}, InstanceTypes: map[string][]*cloudprovider.InstanceType{"general": its}, Pods: pods}
		if l != nil {
			in.Launchers = map[string]cloud.Launcher{"general": l}
		}
		return in
	}
	azure, err := Solve(in(aks.NewCloud(nil)))
	if err != nil {
		t.Fatal(err)
	}
	other, err := Solve(in(custom))
	if err != nil {
		t.Fatal(err)
	}
	if len(azure.NodeClaims) != 1 || len(other.NodeClaims) != 1 || azure.NodeClaims[0].Launch == nil || other.NodeClaims[0].Launch == nil {
		t.Fatalf("one launched NodeClaim each expected: %+v / %+v", azure.NodeClaims, other.NodeClaims)
	}
	opts := other.NodeClaims[0].InstanceTypeOptions
	if custom.calls != 1 || other.NodeClaims[0].Launch.InstanceType != opts[len(opts)-1] || azure.NodeClaims[0].Launch.InstanceType == opts[len(opts)-1] {
		t.Errorf("launched %s (Azure: %s), want the pool launcher's pick %s", other.NodeClaims[0].Launch.InstanceType.Name, azure.NodeClaims[0].Launch.InstanceType.Name, opts[len(opts)-1].Name)
	}
	none, err := Solve(in(nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(none.NodeClaims) != 1 || none.NodeClaims[0].Launch != nil {
		t.Errorf("a pool without a launcher must launch nothing: %+v", none.NodeClaims)
	}
}
