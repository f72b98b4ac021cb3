package eks

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

// FuzzNodeClass: any kubelet strings and volume size give instance types or
// an error, never a panic (input from a manifest the API server has not
// validated reaches here through review). The seeds run with go test; "NaN%"
// parsed as a percentage and panicked in the eviction threshold.
func FuzzNodeClass(f *testing.F) {
	for _, s := range []string{"NaN%", "5%", "100%", "%", "1e400%", "-5%", "750Mi", "", "-1Gi", "Inf%", "0"} {
		f.Add(s, "1Gi", "20Gi", int32(-1))
		f.Add("10%", s, s, int32(-1))
	}
	f.Add("10%", "1Gi", "-20Gi", int32(58))
	f.Add("10%", "1Gi", "0", int32(0))
	one, err := catalog.New([]catalog.InstanceType{*mustGet(f, "m5.large")}, nil, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, signal, reserved, volume string, maxPods int32) {
		nc := NodeClass{Kubelet: Kubelet{
			EvictionHard: map[string]string{"memory.available": signal, "nodefs.available": signal},
			KubeReserved: map[string]string{"memory": reserved},
		}}
		if maxPods >= 0 {
			nc.Kubelet.MaxPods = &maxPods
		}
		if q, err := resource.ParseQuantity(volume); err == nil {
			nc.BlockDeviceMappings = []BlockDeviceMapping{{DeviceName: "/dev/xvda", RootVolume: true, VolumeSize: &q}}
		}
		_, _, _ = Derive(one, "us-east-1", nc, DefaultOptions())
	})
}

func mustGet(f *testing.F, name string) *catalog.InstanceType {
	t, ok := catalog.Default().Get(name)
	if !ok {
		f.Fatalf("%s not in the catalog", name)
	}
	return t
}
