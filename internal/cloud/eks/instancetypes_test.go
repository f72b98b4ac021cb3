package eks

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/catalog"
)

func byName(t *testing.T, its cloudprovider.InstanceTypes, name string) *cloudprovider.InstanceType {
	t.Helper()
	for _, it := range its {
		if it.Name == name {
			return it
		}
	}
	t.Fatalf("%s not derived", name)
	return nil
}

func derived(t *testing.T, region string, nc NodeClass) cloudprovider.InstanceTypes {
	t.Helper()
	its, err := InstanceTypes(region, nc)
	if err != nil {
		t.Fatal(err)
	}
	return its
}

func wantQuantity(t *testing.T, what string, got resource.Quantity, want string) {
	t.Helper()
	if got.String() != want {
		t.Errorf("%s = %s, want %s", what, got.String(), want)
	}
}

// m5.large: 2 vCPUs, 8 GiB, 3 ENIs × 10 IPv4: 3 × 9 + 2 = 29 ENI-limited pods.
func TestKubeletSettings(t *testing.T) {
	maxPods, ppc := int32(110), int32(4)
	def := byName(t, derived(t, "us-east-1", NodeClass{}), "m5.large")
	wantQuantity(t, "default pods", def.Capacity[corev1.ResourcePods], "29")
	wantQuantity(t, "default kube-reserved memory", def.Overhead.KubeReserved[corev1.ResourceMemory], "574Mi")
	wantQuantity(t, "default kube-reserved cpu", def.Overhead.KubeReserved[corev1.ResourceCPU], "70m")

	// maxPods raises the pod capacity; AL2023 still reserves memory for the
	// ENI-limited density, as upstream does.
	mp := byName(t, derived(t, "us-east-1", NodeClass{Kubelet: Kubelet{MaxPods: &maxPods}}), "m5.large")
	wantQuantity(t, "maxPods pods", mp.Capacity[corev1.ResourcePods], "110")
	wantQuantity(t, "maxPods kube-reserved memory", mp.Overhead.KubeReserved[corev1.ResourceMemory], "574Mi")

	pc := byName(t, derived(t, "us-east-1", NodeClass{Kubelet: Kubelet{PodsPerCore: &ppc}}), "m5.large")
	wantQuantity(t, "podsPerCore pods", pc.Capacity[corev1.ResourcePods], "8")

	// Bottlerocket ignores podsPerCore and reserves memory for maxPods.
	br := byName(t, derived(t, "us-east-1", NodeClass{AMIFamily: AMIFamilyBottlerocket, Kubelet: Kubelet{MaxPods: &maxPods, PodsPerCore: &ppc}}), "m5.large")
	wantQuantity(t, "Bottlerocket pods", br.Capacity[corev1.ResourcePods], "110")
	wantQuantity(t, "Bottlerocket kube-reserved memory", br.Overhead.KubeReserved[corev1.ResourceMemory], "1465Mi")

	res := byName(t, derived(t, "us-east-1", NodeClass{Kubelet: Kubelet{
		KubeReserved:   map[string]string{"cpu": "250m"},
		SystemReserved: map[string]string{"memory": "300Mi"},
		EvictionHard:   map[string]string{"memory.available": "10%"},
	}}), "m5.large")
	wantQuantity(t, "kube-reserved cpu override", res.Overhead.KubeReserved[corev1.ResourceCPU], "250m")
	wantQuantity(t, "kube-reserved memory kept", res.Overhead.KubeReserved[corev1.ResourceMemory], "574Mi")
	wantQuantity(t, "system-reserved memory", res.Overhead.SystemReserved[corev1.ResourceMemory], "300Mi")
	// 8192Mi − ceil(8192 × 0.075)Mi = 7577Mi; 10 % of 7,945,060,352 bytes rounded
	// up, printed as upstream builds it (from the float).
	wantQuantity(t, "capacity memory", res.Capacity[corev1.ResourceMemory], "7577Mi")
	wantQuantity(t, "eviction memory", res.Overhead.EvictionThreshold[corev1.ResourceMemory], "7.94506036e+08")
}

func TestEphemeralStorage(t *testing.T) {
	root := resource.MustParse("80Gi")
	r := byName(t, derived(t, "us-east-1", NodeClass{BlockDeviceMappings: []BlockDeviceMapping{{DeviceName: "/dev/xvda", RootVolume: true, VolumeSize: &root}}}), "m5.large")
	wantQuantity(t, "root volume", r.Capacity[corev1.ResourceEphemeralStorage], "80Gi")
	raid := derived(t, "us-east-1", NodeClass{InstanceStorePolicy: "RAID0"})
	wantQuantity(t, "RAID0 with NVMe", byName(t, raid, "m5d.large").Capacity[corev1.ResourceEphemeralStorage], "75G")
	wantQuantity(t, "RAID0 without NVMe", byName(t, raid, "m5.large").Capacity[corev1.ResourceEphemeralStorage], "20Gi")
}

// Offerings are available only where a price is found, as upstream requires
// one; where the region has no on-demand table, the us-east-1 price stands in
// (labelled), as in the AWS provider.
func TestOfferingsFollowPrices(t *testing.T) {
	ct := func(it *cloudprovider.InstanceType, c string) *cloudprovider.Offering {
		for _, o := range it.Offerings {
			if o.Requirements.Get(karpv1.CapacityTypeLabelKey).Has(c) {
				return o
			}
		}
		t.Fatalf("%s: no %s offering", it.Name, c)
		return nil
	}
	use1 := byName(t, derived(t, "us-east-1", NodeClass{}), "m5.large")
	if o := ct(use1, karpv1.CapacityTypeOnDemand); !o.Available || o.Price != 0.096 {
		t.Errorf("us-east-1 on-demand: %+v", o)
	}
	euw1 := byName(t, derived(t, "eu-west-1", NodeClass{}), "m5.large")
	if o := ct(euw1, karpv1.CapacityTypeOnDemand); !o.Available || o.Price != 0.096 {
		t.Errorf("eu-west-1 on-demand (us-east-1 fallback): %+v", o)
	}
	if o := ct(euw1, karpv1.CapacityTypeSpot); !o.Available || o.Price <= 0 {
		t.Errorf("eu-west-1 spot (2024 estimate): %+v", o)
	}
	if p, ok := catalog.Default().Price("eu-west-1", "m5.large", catalog.Spot); !ok || !p.Estimate {
		t.Errorf("eu-west-1 spot price should be flagged as an estimate: %+v", p)
	}
	// A type no table prices: both offerings unavailable, as upstream.
	for _, it := range derived(t, "us-east-1", NodeClass{}) {
		if _, ok := catalog.Default().Price("us-east-1", it.Name, catalog.OnDemand); ok {
			continue
		}
		if len(it.Offerings.Available()) != 0 {
			t.Errorf("%s has no us-east-1 price, yet offerings are available", it.Name)
		}
		break
	}
	if got := byName(t, derived(t, "eu-west-1", NodeClass{}), "m5.large").Requirements.Get(corev1.LabelTopologyRegion).Values(); len(got) != 1 || got[0] != "eu-west-1" {
		t.Errorf("region requirement %v", got)
	}
}

func TestInvalidNodeClassReportsEverything(t *testing.T) {
	neg := int32(-1)
	_, err := InstanceTypes("us-east-1", NodeClass{
		AMIFamily:           "Ubuntu",
		InstanceStorePolicy: "RAID5",
		Kubelet: Kubelet{
			MaxPods:        &neg,
			KubeReserved:   map[string]string{"cpu": "lots", "gpu": "1"},
			SystemReserved: map[string]string{"memory": "-1Gi"},
			EvictionHard:   map[string]string{"memory.available": "150%", "nodefs.available": "ten"},
		},
	})
	if err == nil {
		t.Fatal("invalid node class accepted")
	}
	for _, want := range []string{
		`spec.amiFamily: unknown AMI family "Ubuntu"; valid: AL2, AL2023, Bottlerocket, Custom, Windows2019, Windows2022, Windows2025`,
		"spec.kubelet.maxPods: -1 is negative",
		`spec.kubelet.kubeReserved["cpu"]: "lots" is not a quantity`,
		`spec.kubelet.evictionHard["memory.available"]: "150%" is not a percentage between 0% and 100%`,
		`spec.kubelet.evictionHard["nodefs.available"]: "ten" is neither a quantity`,
		`spec.instanceStorePolicy: "RAID5"; valid: RAID0 or unset`,
		`spec.kubelet.kubeReserved: key "gpu" is not valid; valid keys are cpu, memory, ephemeral-storage, pid`,
		`spec.kubelet.systemReserved["memory"]: "-1Gi" is negative`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := InstanceTypes("", NodeClass{}); err == nil || !strings.Contains(err.Error(), "region is empty") {
		t.Errorf("empty region: %v", err)
	}
}

// Types whose ENI limits the catalog lacks cannot have ENIs reserved: they are
// dropped with the reason rather than given a wrong pod count.
func TestReservedENIsNeedENIFacts(t *testing.T) {
	o := DefaultOptions()
	o.ReservedENIs = 1
	its, dropped, err := Derive(catalog.Default(), "us-east-1", NodeClass{}, o)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range dropped {
		names = append(names, d.Name)
		if !strings.Contains(d.Reason, "no ENI limits for it (only its default pod density), so 1 reserved ENIs cannot be taken off") {
			t.Errorf("%s: reason %q", d.Name, d.Reason)
		}
	}
	want := "hpc6a.48xlarge hpc6id.32xlarge hpc7a.12xlarge hpc7a.24xlarge hpc7a.48xlarge hpc7a.96xlarge hpc8a.96xlarge trn2.48xlarge"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("dropped %s, want %s", got, want)
	}
	if len(its)+len(dropped) != len(catalog.Default().Types) {
		t.Errorf("%d derived + %d dropped != %d", len(its), len(dropped), len(catalog.Default().Types))
	}
	// 3 ENIs less 1 reserved: 2 × 9 + 2.
	wantQuantity(t, "m5.large pods with 1 reserved ENI", byName(t, its, "m5.large").Capacity[corev1.ResourcePods], "20")
	if _, err := InstanceTypes("us-east-1", NodeClass{}); err != nil {
		t.Errorf("defaults drop nothing: %v", err)
	}
}

// Windows: amd64 only, the build label, 110 pods, the 50Gi C: drive and the
// private IPv4 capacity (m5.large: 10 IPv4 per ENI, less the primary).
func TestWindows(t *testing.T) {
	its := derived(t, "us-east-1", NodeClass{AMIFamily: AMIFamilyWindows2022})
	m5 := byName(t, its, "m5.large")
	if got := m5.Requirements.Get(corev1.LabelWindowsBuild).Values(); len(got) != 1 || got[0] != "10.0.20348" {
		t.Errorf("windows-build %v", got)
	}
	if got := m5.Requirements.Get(corev1.LabelOSStable).Values(); len(got) != 1 || got[0] != "windows" {
		t.Errorf("os %v", got)
	}
	wantQuantity(t, "Windows pods", m5.Capacity[corev1.ResourcePods], "110")
	wantQuantity(t, "Windows kube-reserved memory", m5.Overhead.KubeReserved[corev1.ResourceMemory], "1465Mi")
	wantQuantity(t, "Windows ephemeral storage", m5.Capacity[corev1.ResourceEphemeralStorage], "50Gi")
	wantQuantity(t, "Windows private IPv4", m5.Capacity[ResourcePrivateIPv4Address], "9")
	if got := byName(t, its, "m6g.large").Requirements.Get(corev1.LabelOSStable).Len(); got != 0 {
		t.Errorf("arm64 under Windows: os requirement has %d values, want none", got)
	}
}
