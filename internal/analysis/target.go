package analysis

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/version"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	karpoptions "sigs.k8s.io/karpenter/pkg/operator/options"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// PinnedKarpenterVersion is the Karpenter release this build's CRDs and checks come from:
// the Azure provider module in go.mod (github.com/Azure/karpenter-provider-azure v1.14.2).
const PinnedKarpenterVersion = "1.14.2"

// Target is the Karpenter a cluster runs, as far as it decides which NodePool fields take
// effect: its release and its feature gates. The zero value is the pinned release with the
// gates the Azure provider's chart ships (all alpha gates off).
type Target struct {
	version *version.Version
	gates   karpoptions.FeatureGates
	label   string
}

// knownGates are the names Karpenter's FEATURE_GATES accepts. Its own parser ignores unknown
// names; a typo here would silently leave a gate at its default, so it is an error instead.
var knownGates = []string{"NodeRepair", "ReservedCapacity", "SpotToSpotConsolidation", "NodeOverlay", "StaticCapacity", "CapacityBuffer"}

// ParseTarget reads a Karpenter release ("1.14.2", "v1.9"; empty for the pinned one) and
// feature gates in Karpenter's FEATURE_GATES syntax ("StaticCapacity=true,NodeOverlay=true";
// empty for the chart's defaults).
func ParseTarget(release, gates string) (Target, error) {
	t := Target{}
	if release = strings.TrimPrefix(strings.TrimSpace(release), "v"); release != "" {
		v, err := version.ParseGeneric(release)
		if err != nil {
			return t, fmt.Errorf("karpenter version %q: want a release such as %q", release, PinnedKarpenterVersion)
		}
		t.version = v
	}
	gates = strings.TrimSpace(gates)
	for _, kv := range strings.Split(gates, ",") {
		name, _, _ := strings.Cut(strings.TrimSpace(kv), "=")
		if name != "" && !contains(knownGates, name) {
			return t, fmt.Errorf("feature gate %q is unknown to Karpenter %s (known: %s)", name, PinnedKarpenterVersion, strings.Join(knownGates, ", "))
		}
	}
	g, err := karpoptions.ParseFeatureGates(gates)
	if err != nil {
		return t, fmt.Errorf("feature gates %q: %w (want NAME=true|false pairs separated by commas)", gates, err)
	}
	t.gates = g
	if gates != "" {
		t.label = "feature gates " + gates
	}
	return t, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (t Target) release() *version.Version {
	if t.version != nil {
		return t.version
	}
	return version.MustParseGeneric(PinnedKarpenterVersion)
}

func (t Target) gateSet() karpoptions.FeatureGates {
	if t.label == "" {
		return karpoptions.DefaultFeatureGates()
	}
	return t.gates
}

// RunsNodeOverlay reports whether the target's NodeOverlay feature gate is on: without it
// Karpenter ignores NodeOverlay objects (the Azure provider's cloudprovider.go checks the gate).
func (t Target) RunsNodeOverlay() bool { return t.gateSet().NodeOverlay }

// String names the target in messages.
func (t Target) String() string {
	s := "Karpenter " + t.release().String()
	if t.version == nil {
		s += " (pinned)"
	}
	if t.label != "" {
		return s + " with " + t.label
	}
	return s + " with the Azure chart's default feature gates"
}

// Since which Karpenter minor release a field takes effect. The Azure provider's releases
// follow the minor version of the Karpenter core they build on (v1.14.2 builds on core v1.14.0).
var (
	balancedSince = version.MajorMinor(1, 14) // kubernetes-sigs/karpenter#2962
	gteLteSince   = version.MajorMinor(1, 9)  // kubernetes-sigs/karpenter#2674
)

// checkTarget reports fields of the pool that the target Karpenter does not act on.
func checkTarget(p *Pool, o Options, a *Analysis) {
	t := o.Target
	rel := t.release()
	add := func(path, msg, fix string) {
		a.add(findings.Finding{Code: findings.FeatureNotRunByTarget, Path: path, Message: msg + " (target: " + t.String() + ")", Fix: fix})
	}
	if p.Spec.Disruption.ConsolidationPolicy == karpv1.ConsolidationPolicyBalanced && rel.LessThan(balancedSince) {
		add("spec.disruption.consolidationPolicy",
			fmt.Sprintf("consolidationPolicy Balanced was added in Karpenter %s; Karpenter %s does not know it", balancedSince, rel),
			"use WhenEmptyOrUnderutilized, or upgrade Karpenter to 1.14 or later")
	}
	if p.Spec.Replicas != nil && !t.gateSet().StaticCapacity {
		add("spec.replicas",
			fmt.Sprintf("spec.replicas (static capacity, %d nodes) only takes effect with the StaticCapacity feature gate, which is off; Karpenter would not keep the pool at a fixed size", *p.Spec.Replicas),
			"enable StaticCapacity (the chart's settings.featureGates.staticCapacity) and say so in the target's feature gates, or drop replicas and let the pool scale with demand")
	}
	if rel.LessThan(gteLteSince) {
		var idx []int
		for i, r := range p.Spec.Template.Spec.Requirements {
			if op := string(r.Operator); op == "Gte" || op == "Lte" {
				idx = append(idx, i)
			}
		}
		for _, i := range idx {
			add(requirementPath(i, "operator"),
				fmt.Sprintf("operator %s was added in Karpenter %s; the NodePool CRD of Karpenter %s rejects it and its scheduler does not know it", p.Spec.Template.Spec.Requirements[i].Operator, gteLteSince, rel),
				"use Gt or Lt with the value one below or above, or upgrade Karpenter to 1.9 or later")
		}
	}
}
