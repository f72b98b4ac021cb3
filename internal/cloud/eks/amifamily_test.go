package eks

import (
	"strings"
	"testing"
)

func TestAMIFamilyOf(t *testing.T) {
	custom := AMIFamilyCustom
	for _, c := range []struct {
		family  *string
		aliases []string
		want    string
		err     string
	}{
		{aliases: []string{"al2023@latest"}, want: AMIFamilyAL2023},
		{aliases: []string{"", "bottlerocket@v1.20.0"}, want: AMIFamilyBottlerocket},
		{aliases: []string{"windows2022@latest"}, want: AMIFamilyWindows2022},
		{family: &custom, aliases: []string{"al2023@latest"}, want: AMIFamilyCustom},
		{aliases: []string{"ubuntu@latest"}, err: `spec.amiSelectorTerms[0].alias: "ubuntu" is not an alias family`},
		{aliases: []string{"AL2023@latest"}, err: `"AL2023" is not an alias family`},
		{aliases: []string{"al2023"}, err: `spec.amiSelectorTerms[0].alias: "al2023" is not family@version`},
		{aliases: []string{""}, err: "spec.amiFamily: required when no amiSelectorTerms term has an alias"},
	} {
		got, err := AMIFamilyOf(c.family, c.aliases)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want %q", c.aliases, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v: %q, %v; want %q", c.aliases, got, err, c.want)
		}
	}
}
