package cloud

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/sets"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
)

// AnyRegion asks for every instance type of a cloud's catalog regardless of region: regional
// availability and zones are then unknown and prices come from the cloud's fallback.
const AnyRegion = ""

// Cloud is what the analysis, the simulation and the plan-time checks need from a cloud.
// Implementations must be safe for concurrent use; InstanceTypes is the expensive call and
// callers cache its result per (cloud, region, node class).
type Cloud interface {
	// Name identifies the cloud in the registry and in messages ("Azure").
	Name() string
	// NodeClassKinds are the node-class kinds the cloud owns (karpenter.azure.com/AKSNodeClass):
	// a NodePool whose nodeClassRef.group is one of their groups is served by this cloud.
	NodeClassKinds() []schema.GroupKind
	// DefaultNodeClass is the node class an empty spec yields after the API server's
	// defaulting, which stands in when a pool's node class is not known.
	DefaultNodeClass() NodeClass
	// DecodeNodeClass reads what shapes instance types from a node-class object (its
	// unstructured content, defaults applied).
	DecodeNodeClass(obj map[string]any) (NodeClass, error)

	Regions
	Labels
	Launcher

	// InstanceTypes are the instance types the cloud's Karpenter provider lists in region for
	// the node class, sorted by name (AnyRegion: every type of the catalog). The result is
	// shared and read-only.
	InstanceTypes(region string, nc NodeClass) []*InstanceType
}

// Regions is a cloud's region handling.
type Regions interface {
	// Regions lists the regions the cloud's catalog knows (lower case, sorted).
	Regions() []string
	// HasRegion reports whether the catalog knows the region (case-insensitive).
	HasRegion(region string) bool
	// ExampleRegion is the region suggested when a configured one is unknown and no known
	// name is near it.
	ExampleRegion() string
	// Zones returns the region's zones as topology.kubernetes.io/zone values, and whether the
	// catalog knows them at all (false: zonal checks cannot be judged, not "no zones").
	Zones(region string) (zones []string, known bool)
	// Currency is the ISO 4217 code of the prices the cloud ranks the region's offerings by
	// (the price table's own, never converted): every money figure of the region carries it.
	Currency(region string) string
}

// Labels is what the label checks need: which keys are the cloud's own.
type Labels interface {
	// LabelDomains are the label domains the cloud's provider sets labels under besides
	// Kubernetes' and Karpenter's (karpenter.azure.com, kubernetes.azure.com): an unknown key
	// under one of them is a typo rather than a custom label.
	LabelDomains() []string
	// WellKnownLabels are the label keys Karpenter knows for this cloud (its core labels and the
	// provider's), the keys a requirement may use without being a custom label.
	WellKnownLabels() sets.Set[string]
}

// Launcher is the cloud provider's launch choice for one NodeClaim.
type Launcher interface {
	// Launch resolves the NodeClaim's options (instance types) against its requirements and
	// requests as the provider's Create does, and ranks the offerings by its allocation
	// strategy. It returns the instance type launched and every offering ranked equal to the
	// best (the provider picks one of them at random), or nil when nothing can launch.
	// resolvable, when not nil, memoises per instance type whether it is compatible with reqs
	// and has an available compatible offering: the caller passes the same map only for
	// requirements equal but for the instance-type label (every option passed that label
	// already, and offerings carry none, so it never decides them).
	Launch(options []*cloudprovider.InstanceType, reqs scheduling.Requirements, requests corev1.ResourceList, resolvable map[*cloudprovider.InstanceType]bool) (*cloudprovider.InstanceType, []*cloudprovider.Offering)
	// Rank orders instance types with offerings already known to be allowed as the allocation
	// strategy ranks them: best first, each one's offerings best first. The analysis reports
	// the first as the offering Karpenter launches. It does not order by zone (offerings that
	// differ only in zone rank alike): the analysis ranks one of them.
	Rank(cands []InstanceOfferings) []InstanceOfferings
}

// InstanceOfferings is an instance type with the offerings that may launch it.
type InstanceOfferings struct {
	InstanceType *cloudprovider.InstanceType
	Offerings    cloudprovider.Offerings
}

// NodeClass is a cloud's decoded node class: the settings that shape its instance types.
// Implementations are comparable values (they key caches) and name their cloud.
type NodeClass interface {
	// Cloud is the Name of the cloud the node class belongs to.
	Cloud() string
}
