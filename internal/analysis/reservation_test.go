package analysis

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

func limitsOf(kv ...string) corev1.ResourceList {
	l := corev1.ResourceList{}
	for i := 0; i+1 < len(kv); i += 2 {
		l[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return l
}

var (
	familiesDE = req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D", "E")
	onDemand   = req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeOnDemand)
)

func skuCPUBelow(n string) karpv1.NodeSelectorRequirementWithMinValues {
	return req("karpenter.azure.com/sku-cpu", corev1.NodeSelectorOpLt, n)
}

// The finding names the resource, the largest size and its capacity, the NodeClaims a round
// may open and what is left after them, on spec.limits, and fixes it with the pool's cloud's
// cap label or a higher limit.
func TestReservationMessage(t *testing.T) {
	a := testSolver.Analyze(pool(limitsOf("cpu", "200"), familiesDE), Options{Region: "westeurope"})
	f := findingOf(a, findings.LimitsReservation)
	if f == nil {
		t.Fatalf("no KRP119 on a D/E pool limited to 200 vCPU: %v", a.Findings)
	}
	if f.Path != "spec.limits" || f.Severity() != findings.Warning {
		t.Errorf("KRP119 at %q as %s, want spec.limits, warning", f.Path, f.Severity())
	}
	for _, want := range []string{"Standard_D192s_v6 with 192 vCPU", "against cpu=200", "only 1 new NodeClaim that may become any admissible size",
		"the cpu=8 left then admits sizes up to 8 vCPU"} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message lacks %q: %s", want, f.Message)
		}
	}
	// 64 vCPU is the loosest cap that leaves three NodeClaims of any size (200/64 = 3.1; the
	// next size up, 72, leaves two); raised to 3 × 192 the limit holds three of the largest.
	for _, want := range []string{"require karpenter.azure.com/sku-cpu Lt 65", "3 NodeClaims per round", "raise the limits to cpu=576"} {
		if !strings.Contains(f.Fix, want) {
			t.Errorf("fix lacks %q: %s", want, f.Fix)
		}
	}
}

// The threshold: a limit of three times the largest admissible size is not reported, one vCPU
// less is (two NodeClaims of any size per round).
func TestReservationThreshold(t *testing.T) {
	for _, tc := range []struct {
		limit string
		want  bool
	}{{"192", false}, {"191", true}, {"64", true}, {"1000", false}} {
		// D/E up to 64 vCPU: 192 = 3 × 64 is the boundary.
		p := pool(limitsOf("cpu", tc.limit), familiesDE, skuCPUBelow("65"))
		got := findingOf(testSolver.Analyze(p, Options{Region: "westeurope"}), findings.LimitsReservation)
		if (got != nil) != tc.want {
			t.Errorf("cpu=%s over sizes up to 64 vCPU: KRP119 %v, want %v (%v)", tc.limit, got != nil, tc.want, got)
		}
	}
}

// Pools other checks cover, or that the scheduler's limits do not bind this way, are left alone:
// no limits (KRP104), limits below every size (KRP105), a static pool, a limit on nodes only
// (instance types carry no "nodes" capacity: subtractMax does not charge it).
func TestReservationLeavesOtherPoolsAlone(t *testing.T) {
	static := pool(limitsOf("cpu", "64"), familiesDE)
	static.Spec.Replicas = new(int64(3))
	for name, p := range map[string]*Pool{
		"no limits":          pool(nil, familiesDE),
		"limits below nodes": pool(limitsOf("cpu", "1"), familiesDE),
		"static":             static,
		"nodes only":         pool(limitsOf("nodes", "2"), familiesDE),
		"generous":           pool(limitsOf("cpu", "200", "memory", "800Gi"), familiesDE, skuCPUBelow("33")),
	} {
		a := testSolver.Analyze(p, Options{Region: "westeurope"})
		if f := findingOf(a, findings.LimitsReservation); f != nil {
			t.Errorf("%s: KRP119 %s", name, f.Message)
		}
	}
	a := testSolver.Analyze(pool(limitsOf("cpu", "1"), familiesDE), Options{Region: "westeurope"})
	if findingOf(a, findings.LimitsBelowNode) == nil {
		t.Errorf("limits below every node: want KRP105, got %v", a.Findings)
	}
}

// The resource with the fewest NodeClaims is the one named: a memory limit on memory-heavy
// sizes; a GPU limit is fixed with the GPU count label; with a declared largest pod that the
// capped sizes cannot run, no cap is offered, only a higher limit.
func TestReservationBindingResource(t *testing.T) {
	mem := testSolver.Analyze(pool(limitsOf("cpu", "1000", "memory", "1000Gi"), req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "E")), Options{Region: "westeurope"})
	if f := findingOf(mem, findings.LimitsReservation); f == nil || !strings.Contains(f.Message, "Gi memory, against memory=1000Gi") ||
		!strings.Contains(f.Fix, "raise the limits to memory=") || strings.Contains(f.Fix, "cpu=") {
		t.Errorf("memory-bound pool: %v", f)
	}

	gpu := testSolver.Analyze(pool(limitsOf("nvidia.com/gpu", "4"), req("karpenter.azure.com/sku-gpu-manufacturer", corev1.NodeSelectorOpIn, "nvidia")), Options{Region: "westeurope"})
	if f := findingOf(gpu, findings.LimitsReservation); f == nil || !strings.Contains(f.Message, "with 4 nvidia.com/gpu, against nvidia.com/gpu=4") ||
		!strings.Contains(f.Fix, "require karpenter.azure.com/sku-gpu-count Lt 2") {
		t.Errorf("GPU pool: %v", f)
	}

	fSeries := pool(limitsOf("cpu", "64"), req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "F"))
	f := findingOf(testSolver.Analyze(fSeries, Options{Region: "westeurope"}), findings.LimitsReservation)
	if f == nil || !strings.Contains(f.Fix, "require karpenter.azure.com/sku-cpu Lt 17") {
		t.Fatalf("F pool limited to 64 vCPU: %v", f)
	}
	big := testSolver.Analyze(fSeries, Options{Region: "westeurope", LargestPod: limitsOf("cpu", "20")})
	if f := findingOf(big, findings.LimitsReservation); f == nil || strings.Contains(f.Fix, "require") || !strings.Contains(f.Fix, "raise the limits to cpu=") {
		t.Errorf("with a 20-vCPU largest pod no cap leaves three NodeClaims that run it; want only a higher limit: %v", f)
	}
}

// Each fix clears the finding: the suggested cap, and the raised limits.
func TestReservationFixesClearIt(t *testing.T) {
	for name, p := range map[string]*Pool{
		"wide":   pool(limitsOf("cpu", "2000"), onDemand),
		"D/E":    pool(limitsOf("cpu", "200"), familiesDE),
		"D 250":  pool(limitsOf("cpu", "250", "memory", "1000Gi"), req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "D"), skuCPUBelow("97")),
		"memory": pool(limitsOf("cpu", "1000", "memory", "1000Gi"), req("karpenter.azure.com/sku-family", corev1.NodeSelectorOpIn, "E")),
		"gpu":    pool(limitsOf("nvidia.com/gpu", "4"), req("karpenter.azure.com/sku-gpu-manufacturer", corev1.NodeSelectorOpIn, "nvidia")),
	} {
		f := findingOf(testSolver.Analyze(p, Options{Region: "westeurope"}), findings.LimitsReservation)
		if f == nil {
			t.Errorf("%s: no KRP119", name)
			continue
		}
		m := regexp.MustCompile(`require (\S+) Lt (\d+)`).FindStringSubmatch(f.Fix)
		if m == nil {
			t.Errorf("%s: no cap in %q", name, f.Fix)
			continue
		}
		// The structured cap is the one the fix's text asks for.
		if c := f.SuggestedCap; c == nil || c.Key != m[1] || strconv.Itoa(c.Below) != m[2] {
			t.Errorf("%s: SuggestedCap %+v, the fix says %s Lt %s", name, c, m[1], m[2])
		}
		capped := p.DeepCopy()
		capped.Spec.Template.Spec.Requirements = append(capped.Spec.Template.Spec.Requirements, req(m[1], corev1.NodeSelectorOpLt, m[2]))
		if g := findingOf(testSolver.Analyze(NewPool(capped), Options{Region: "westeurope"}), findings.LimitsReservation); g != nil {
			t.Errorf("%s: %s Lt %s leaves KRP119: %s", name, m[1], m[2], g.Message)
		}
		raised := p.DeepCopy()
		for _, kv := range regexp.MustCompile(`([a-z./]+)=(\d+(?:Gi)?)`).FindAllStringSubmatch(f.Fix[strings.Index(f.Fix, "raise the limits"):], -1) {
			raised.Spec.Limits[corev1.ResourceName(kv[1])] = resource.MustParse(kv[2])
		}
		if g := findingOf(testSolver.Analyze(NewPool(raised), Options{Region: "westeurope"}), findings.LimitsReservation); g != nil {
			t.Errorf("%s: the raised limits %v leave KRP119: %s", name, raised.Spec.Limits, g.Message)
		}
	}
}

// On EKS the cap is the EC2 vocabulary's: Karpenter's getting-started pool (1000 vCPU) admits
// r8i.96xlarge (384 vCPU), so one round opens two NodeClaims of any size.
func TestReservationEKSVocabulary(t *testing.T) {
	s := New(catalog.Default())
	a := s.Analyze(eksPool(cpu1000, gettingStarted()...), Options{Region: "us-east-1"})
	f := findingOf(a, findings.LimitsReservation)
	if f == nil || !strings.Contains(f.Message, "only 2 new NodeClaims") || !strings.Contains(f.Fix, "require "+eks.LabelInstanceCPU+" Lt ") ||
		strings.Contains(f.Message+f.Fix, "karpenter.azure.com") {
		t.Errorf("EKS getting-started pool: %v", f)
	}
}

// claims is floor(limit / most), exact at multiples.
func TestReservationClaims(t *testing.T) {
	q := resource.MustParse
	for _, tc := range []struct {
		limit, most string
		want        int
	}{{"200", "64", 3}, {"192", "64", 3}, {"191", "64", 2}, {"800Gi", "256Gi", 3}, {"800Gi", "257Gi", 3}, {"771Gi", "257Gi", 3}, {"770Gi", "257Gi", 2},
		{"1500m", "500m", 3}, {"4", "8", 0}, {"1Ti", "1Gi", 1024}} {
		if got := claims(q(tc.limit), q(tc.most)); got != tc.want {
			t.Errorf("claims(%s, %s) = %d, want %d", tc.limit, tc.most, got, tc.want)
		}
	}
}
