package nodeclasscheck

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// windowsFamilies admit only @latest (the CRD's CEL rejects a pinned Windows alias), so there
// is nothing to pin.
var windowsFamilies = []string{"windows2019", "windows2022", "windows2025"}

// productionWords are the words that make a node class production-looking.
var productionWords = []string{"prod", "production", "prd"}

// checkLatestAlias reports an amiSelectorTerms alias with version latest in a
// production-looking node class (ProductionEvidence). With @latest every new EKS-optimized AMI
// release drifts every node of the class and Karpenter replaces them all, untested, at the
// pace of the NodePools' disruption budgets; the AMI's documentation and the EKS best
// practices say to pin a version in production.
func checkLatestAlias(obj, spec map[string]any) []findings.Finding {
	terms, _ := spec["amiSelectorTerms"].([]any)
	var out []findings.Finding
	for i, raw := range terms {
		term, _ := raw.(map[string]any)
		alias, _ := term["alias"].(string)
		family, version, ok := strings.Cut(alias, "@")
		if !ok || version != "latest" || slices.Contains(windowsFamilies, family) {
			continue
		}
		evidence := ProductionEvidence(obj)
		if evidence == "" {
			continue
		}
		out = append(out, findings.New(findings.LatestAMIInProduction, fmt.Sprintf("spec.amiSelectorTerms[%d].alias", i),
			fmt.Sprintf("The node class looks like production (%s) and selects its AMI by alias %q: each new EKS-optimized %s AMI release "+
				"drifts every node launched from it, and Karpenter replaces them all with an AMI nobody tested, at the pace of the NodePools' "+
				"disruption budgets. The EKS best practices and the CRD's own description say not to use latest in production.", evidence, alias, family),
			fmt.Sprintf("pin the release, e.g. alias = %q (the version your pre-production class runs), and raise it deliberately", pinnedExample(family))))
	}
	return out
}

// pinnedExample is an alias pinned in the family's version format, as the CRD's description
// writes them (al2023@v20240625, bottlerocket@v1.10.0).
func pinnedExample(family string) string {
	if family == "bottlerocket" {
		return "bottlerocket@v1.10.0"
	}
	return family + "@v20240625"
}

// ProductionEvidence says why a node class looks like production, or "" when it does not: one
// of the words prod, production or prd, as a whole word (split at anything but letters and
// digits, case-insensitive), in its name, a label's key or value, or a value of spec.tags
// (the tags Karpenter puts on its instances, e.g. Environment = production).
func ProductionEvidence(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	if name, _ := meta["name"].(string); productionLooking(name) {
		return fmt.Sprintf("its name %q", name)
	}
	labels, _ := meta["labels"].(map[string]any)
	for _, k := range sortedKeys(labels) {
		v, _ := labels[k].(string)
		if productionLooking(k) || productionLooking(v) {
			return fmt.Sprintf("label %s=%s", k, v)
		}
	}
	spec, _ := obj["spec"].(map[string]any)
	tags, _ := spec["tags"].(map[string]any)
	for _, k := range sortedKeys(tags) {
		if v, _ := tags[k].(string); productionLooking(v) {
			return fmt.Sprintf("tag %s=%s", k, v)
		}
	}
	return ""
}

func productionLooking(s string) bool {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return slices.ContainsFunc(words, func(w string) bool { return slices.Contains(productionWords, w) })
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
