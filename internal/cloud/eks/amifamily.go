package eks

import (
	"fmt"
	"strings"
)

// aliasFamilies are the families an amiSelectorTerms alias may name, in the
// AWS provider's order; the alias spells them in lower case (al2023@latest).
var aliasFamilies = []string{AMIFamilyAL2, AMIFamilyAL2023, AMIFamilyBottlerocket, AMIFamilyWindows2019, AMIFamilyWindows2022, AMIFamilyWindows2025}

// AMIFamilyOf resolves an EC2NodeClass's AMI family as the AWS provider's
// EC2NodeClass.AMIFamily does: spec.amiFamily when set, else the family of
// the first amiSelectorTerms alias ("" for terms without one). The CRD
// requires one of the two; where neither is given, or an alias is malformed
// (upstream exits the process on one), the error says which field to set.
func AMIFamilyOf(amiFamily *string, aliases []string) (string, error) {
	if amiFamily != nil {
		return *amiFamily, nil
	}
	for i, alias := range aliases {
		if alias == "" {
			continue
		}
		family, version, ok := strings.Cut(alias, "@")
		if !ok || version == "" || strings.Contains(version, "@") {
			return "", fmt.Errorf("spec.amiSelectorTerms[%d].alias: %q is not family@version (e.g. al2023@latest)", i, alias)
		}
		for _, f := range aliasFamilies {
			if strings.ToLower(f) == family {
				return f, nil
			}
		}
		return "", fmt.Errorf("spec.amiSelectorTerms[%d].alias: %q is not an alias family; valid: al2, al2023, bottlerocket, windows2019, windows2022, windows2025", i, family)
	}
	return "", fmt.Errorf("spec.amiFamily: required when no amiSelectorTerms term has an alias (e.g. alias: al2023@latest)")
}
