package aws

import (
	"strings"
	"testing"
)

func TestParseClusterARN(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ClusterARN
	}{
		{"arn:aws:eks:eu-west-1:123456789012:cluster/prod-euw1", ClusterARN{"aws", "eu-west-1", "123456789012", "prod-euw1"}},
		{"arn:aws-cn:eks:cn-north-1:123456789012:cluster/a_b", ClusterARN{"aws-cn", "cn-north-1", "123456789012", "a_b"}},
		{"arn:aws-us-gov:eks:us-gov-west-1:123456789012:cluster/X1", ClusterARN{"aws-us-gov", "us-gov-west-1", "123456789012", "X1"}},
	} {
		got, err := ParseClusterARN(tc.in)
		if err != nil || got != tc.want || got.String() != tc.in {
			t.Errorf("ParseClusterARN(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, says string }{
		{"prod-euw1", "not an ARN"},
		{"arn:aws:ecs:eu-west-1:123456789012:cluster/prod", `service is "ecs"`},
		{"arn:aws:eks:westeurope:123456789012:cluster/prod", `region "westeurope"`},
		{"arn:aws:eks:eu-west-1:12345:cluster/prod", `account "12345"`},
		{"arn:aws:eks:eu-west-1:123456789012:nodegroup/prod/ng/1", `is not a cluster`},
		{"arn:aws:eks:eu-west-1:123456789012:cluster/-bad", `cluster name "-bad"`},
		{"arn:aws:eks:eu-west-1:123456789012:cluster/", `cluster name ""`},
		{"arn:azure:eks:eu-west-1:123456789012:cluster/prod", `partition "azure"`},
	} {
		_, err := ParseClusterARN(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), ExampleClusterARN) {
			t.Errorf("ParseClusterARN(%q) = %v; want an error saying %s and giving a valid example", tc.in, err, tc.says)
		}
	}
}
