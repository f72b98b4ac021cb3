package eks

import (
	"testing"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
)

// TestAMIFamilyOfMatchesUpstream: AMIFamilyOf against EC2NodeClass.AMIFamily
// for valid node classes (upstream exits the process on a malformed alias).
func TestAMIFamilyOfMatchesUpstream(t *testing.T) {
	custom, br := awsv1.AMIFamilyCustom, awsv1.AMIFamilyBottlerocket
	for _, c := range []struct {
		family  *string
		aliases []string
	}{
		{aliases: []string{"al2023@latest"}}, {aliases: []string{"al2@v20240807"}}, {aliases: []string{"bottlerocket@1.20.0"}},
		{aliases: []string{"windows2019@latest"}}, {aliases: []string{"windows2022@latest"}}, {aliases: []string{"windows2025@latest"}},
		{aliases: []string{"", "al2023@latest"}}, {family: &custom, aliases: []string{"al2023@latest"}}, {family: &br},
	} {
		nc := &awsv1.EC2NodeClass{Spec: awsv1.EC2NodeClassSpec{AMIFamily: c.family}}
		for _, a := range c.aliases {
			term := awsv1.AMISelectorTerm{Alias: a}
			if a == "" {
				term.ID = "ami-0123456789abcdef0"
			}
			nc.Spec.AMISelectorTerms = append(nc.Spec.AMISelectorTerms, term)
		}
		got, err := AMIFamilyOf(c.family, c.aliases)
		if want := nc.AMIFamily(); err != nil || got != want {
			t.Errorf("%v: ours %q (%v), upstream %q", c.aliases, got, err, want)
		}
	}
}
