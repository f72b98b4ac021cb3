package solver

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/instancetype"
)

func TestScratch(t *testing.T) {
	s := New(catalog.Default())
	np := &karpv1.NodePool{Spec: karpv1.NodePoolSpec{Template: karpv1.NodeClaimTemplate{Spec: karpv1.NodeClaimTemplateSpec{
		Requirements: []karpv1.NodeSelectorRequirementWithMinValues{
			{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{"on-demand"}},
		},
	}}}}
	np.Name = "default"
	ws := []Workload{
		{Name: "a", Count: 300, Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")}},
		{Name: "b", Count: 100, Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"), corev1.ResourceMemory: resource.MustParse("1Gi")}, ZoneSpread: 1},
		{Name: "c", Count: 50, Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("8Gi")}},
	}
	in := SimulationInput{Region: "westeurope", Pools: []SimPool{{Pool: NewPool(np)}}, Workloads: ws}
	sim, err := s.Simulate(in)
	if err != nil {
		t.Fatal(err)
	}
	pb := s.compile("westeurope", in)
	pb.schedule()
	pb.improve()
	debugBound(pb)
	r, _ := s.Catalog.Region("westeurope")
	fmt.Println("zones known", r.ZonesKnown, r.Zones)
	agg := map[string]int{}
	for _, n := range sim.Nodes {
		agg[fmt.Sprintln(n.Pool, n.SKU, n.Zone, n.CapacityType, n.HourlyPrice, n.Pods, n.Requested.Cpu(), n.Allocatable.Cpu(), n.Requested.Memory(), n.Allocatable.Memory())]++
	}
	for k, v := range agg {
		fmt.Print(v, " x ", k)
	}
	fmt.Println(sim.HourlyCost, sim.LowerBound, sim.Utilisation, sim.ScheduledPods, sim.Unschedulable, sim.BoundGroups)
}

func debugBound(pb *problem) {}

func TestScratchZones(t *testing.T) {
	s := New(catalog.Default())
	rt := s.types("westeurope", instancetype.NodeClass{})
	n := 0
	for _, it := range rt.result.InstanceTypes {
		if it.Name == "Standard_B16pls_v2" || it.Name == "Standard_D4s_v5" {
			fmt.Println(it.Name, it.ZonesKnown)
			for _, o := range it.Offerings {
				fmt.Println("  ", o.Zone(), o.CapacityType(), o.Price, o.Available)
			}
		}
		if it.ZonesKnown {
			n++
		}
	}
	fmt.Println("zones known for", n, "of", len(rt.result.InstanceTypes))
}

func workloads(seed uint64, count int) []Workload {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	replicas := []int{1, 2, 3, 3, 5, 5, 8, 10, 20, 40}
	cpus := []int64{100, 250, 250, 500, 500, 1000, 1000, 1500, 2000, 4000}
	memPerCPU := []int64{512, 1024, 2048, 2048, 4096, 4096, 8192} // MiB per cpu
	var out []Workload
	for total, i := 0, 0; total < count; i++ {
		n := min(replicas[rng.IntN(len(replicas))], count-total)
		cpu := cpus[rng.IntN(len(cpus))]
		mem := max(cpu*memPerCPU[rng.IntN(len(memPerCPU))]/1000, 64)
		w := Workload{
			Name:  fmt.Sprintf("app-%03d", i),
			Count: n,
			Requests: corev1.ResourceList{
				corev1.ResourceCPU:    *resource.NewMilliQuantity(cpu, resource.DecimalSI),
				corev1.ResourceMemory: *resource.NewQuantity(mem<<20, resource.BinarySI),
			},
		}
		if rng.IntN(3) == 0 {
			w.ZoneSpread = 1
		}
		if rng.IntN(10) == 0 {
			w.NodeSelector = map[string]string{corev1.LabelOSStable: "linux"}
		}
		out = append(out, w)
		total += n
	}
	return out
}

func TestScratchWide(t *testing.T) {
	s := New(catalog.Default())
	np := &karpv1.NodePool{Spec: karpv1.NodePoolSpec{Template: karpv1.NodeClaimTemplate{Spec: karpv1.NodeClaimTemplateSpec{
		Requirements: []karpv1.NodeSelectorRequirementWithMinValues{
			{Key: karpv1.CapacityTypeLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{"on-demand"}},
		},
	}}}}
	np.Name = "default"
	in := SimulationInput{Region: "westeurope", Pools: []SimPool{{Pool: NewPool(np)}}, Workloads: workloads(42, 1000)}
	sim, _ := s.Simulate(in)
	agg := map[string]int{}
	for _, n := range sim.Nodes {
		agg[fmt.Sprintln(n.SKU, n.HourlyPrice, n.Requested.Cpu(), n.Allocatable.Cpu(), n.Requested.Memory().Value()>>20, n.Allocatable.Memory().Value()>>20, n.Requested.Pods())]++
	}
	for k, v := range agg {
		fmt.Print(v, " x ", k)
	}
	fmt.Println(sim.HourlyCost, sim.LowerBound, sim.Utilisation)
	pb := s.compile("westeurope", in)
	pb.schedule()
	pb.improve()
	groups := pb.boundGroups()
	cols := pb.boundColumns(groups)
	lp := &coverLP{c: make([]float64, len(cols))}
	for j, c := range cols {
		lp.c[j] = c.price
	}
	for d := range pb.dims {
		row := make([]float64, len(cols))
		var dem float64
		for _, g := range groups {
			dem += g.demand[d]
		}
		if dem == 0 {
			continue
		}
		for j, c := range cols {
			row[j] = float64(c.pool.types[c.t].alloc[d])
		}
		lp.A = append(lp.A, row)
		lp.b = append(lp.b, dem)
		fmt.Println("demand", pb.dims[d], dem)
	}
	res, _ := lp.solve()
	fmt.Println("cols", len(cols), "aggregate bound", res.Bound, "y", res.Y)
	for j, x := range res.X {
		if x > 1e-9 {
			c := cols[j]
			fmt.Println(x, c.pool.types[c.t].it.Name, c.price, c.pool.types[c.t].alloc)
		}
	}
}
