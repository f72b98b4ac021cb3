package cloud

import (
	"strings"

	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// Vocabulary is what a cloud calls things and the label keys its provider sets for the
// attributes every cloud has, so that messages, advice edits, summaries and data-source
// attributes speak the pool's cloud ("EC2 instance types", karpenter.k8s.aws/instance-cpu)
// instead of one cloud's words. Empty keys mean the provider has no such label.
type Vocabulary struct {
	// Kubernetes is the managed Kubernetes service ("AKS", "EKS").
	Kubernetes string
	// InstanceTypes names the machines in a sentence ("Azure VM sizes", "EC2 instance types");
	// InstanceType is the short noun for one ("size", "instance type").
	InstanceTypes string
	InstanceType  string
	// NodeClassKind is the node-class kind a pool references (AKSNodeClass, EC2NodeClass).
	NodeClassKind string
	// NodeClassDefaults says what an assumed node class's defaults are ("Ubuntu, 128 GB OS disk").
	NodeClassDefaults string
	// NodeClassResource is the Terraform resource type of the node class.
	NodeClassResource string
	// SpotNotice says how spot capacity is taken back ("spot VMs can be evicted at 30 seconds' notice").
	SpotNotice string
	// Catalog names the cloud's embedded catalog in a sentence ("SKU catalog", "EC2 catalog").
	Catalog string
	// GPUResources are the extended resources that make an instance type a GPU or accelerator
	// node (nvidia.com/gpu, ...).
	GPUResources []string

	// CPUKey is the vCPU count label (karpenter.azure.com/sku-cpu, karpenter.k8s.aws/instance-cpu).
	CPUKey string
	// MemoryKey is the memory label.
	MemoryKey string
	// FamilyKey is the family label (karpenter.azure.com/sku-family, karpenter.k8s.aws/instance-family).
	FamilyKey string
	// CategoryKey is a coarser grouping than the family, if any (karpenter.k8s.aws/instance-category).
	CategoryKey string
	// GPUCountKey, GPUNameKey and GPUManufacturerKey are the GPU labels.
	GPUCountKey        string
	GPUNameKey         string
	GPUManufacturerKey string
}

// Describer is implemented by clouds that say what they call things; VocabularyOf falls back to
// neutral words for one that does not.
type Describer interface {
	Vocabulary() Vocabulary
}

// VocabularyOf returns c's vocabulary, or neutral words when c has none.
func VocabularyOf(c any) Vocabulary {
	if d, ok := c.(Describer); ok {
		return d.Vocabulary()
	}
	return Vocabulary{Kubernetes: "Kubernetes", InstanceTypes: "instance types", InstanceType: "instance type", NodeClassKind: "node class", Catalog: "catalog", SpotNotice: "spot capacity can be taken back at short notice",
		GPUResources: []string{"nvidia.com/gpu"}}
}

// Caveats is implemented by clouds whose catalog lacks data some checks need in a region
// (zones, prices): each caveat is one plain sentence the analysis reports once (KRP125).
type Caveats interface {
	RegionCaveats(region string) []string
}

// coreLabelDomain reports whether a label key belongs to Kubernetes or Karpenter core
// (karpenter.sh, kubernetes.io and its subdomains) rather than to a cloud provider.
func coreLabelDomain(key string) bool {
	domain, _, ok := strings.Cut(key, "/")
	if !ok {
		return true
	}
	return domain == "karpenter.sh" || domain == "kubernetes.io" || strings.HasSuffix(domain, ".kubernetes.io")
}

// CoreWellKnownLabels are the keys of Karpenter's process-wide karpv1.WellKnownLabels that
// belong to Kubernetes or Karpenter core. Each cloud provider's API package extends that set
// in its init; a binary that links two providers (this one links Azure's and AWS's) sees both
// clouds' labels as well known, which neither cloud's Karpenter does. A cloud's well-known set
// is this plus its own provider's labels (WellKnownLabelsWith).
func CoreWellKnownLabels() sets.Set[string] {
	out := sets.New[string]()
	for k := range karpv1.WellKnownLabels {
		if coreLabelDomain(k) {
			out.Insert(k)
		}
	}
	return out
}

// WellKnownLabelsWith is the well-known label set of a cloud whose provider adds the keys of
// karpv1.WellKnownLabels under domains (its label domains) and the given keys: what
// karpv1.WellKnownLabels is in that cloud's own Karpenter binary.
func WellKnownLabelsWith(domains []string, extra ...string) sets.Set[string] {
	out := CoreWellKnownLabels()
	for k := range karpv1.WellKnownLabels {
		domain, _, _ := strings.Cut(k, "/")
		for _, d := range domains {
			if domain == d {
				out.Insert(k)
			}
		}
	}
	return out.Insert(extra...)
}

// Assumer is implemented by clouds whose offline launch choice or prices differ from what
// their provider does live, in ways a simulation's result must state (its assumptions).
type Assumer interface {
	SimulationAssumptions(region string) []string
}
