package aws

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws/arn"
)

// ClusterARN is a parsed EKS cluster ARN: arn:<partition>:eks:<region>:<account>:cluster/<name>.
type ClusterARN struct {
	Partition, Region, Account, Name string
}

// String is the cluster's ARN.
func (c ClusterARN) String() string {
	return "arn:" + c.Partition + ":eks:" + c.Region + ":" + c.Account + ":cluster/" + c.Name
}

// ExampleClusterARN is a valid ARN, for messages.
const ExampleClusterARN = "arn:aws:eks:eu-west-1:123456789012:cluster/prod-euw1"

var (
	accountPattern   = regexp.MustCompile(`^[0-9]{12}$`)
	regionPattern    = regexp.MustCompile(`^[a-z]{2}(-[a-z]+)+-[0-9]+$`)
	partitionPattern = regexp.MustCompile(`^aws(-[a-z]+)*$`)
	// EKS's own constraint on cluster names (CreateCluster: 1-100 characters, a letter or
	// digit first, then letters, digits, hyphens and underscores).
	clusterNamePattern = regexp.MustCompile(`^[0-9A-Za-z][A-Za-z0-9_-]{0,99}$`)
)

// ParseClusterARN checks that s is an EKS cluster ARN and says what is wrong otherwise.
func ParseClusterARN(s string) (ClusterARN, error) {
	want := fmt.Sprintf("(an ARN like %s: arn:<partition>:eks:<region>:<account>:cluster/<name>)", ExampleClusterARN)
	a, err := arn.Parse(s)
	if err != nil {
		return ClusterARN{}, fmt.Errorf("not an ARN: %v %s", err, want)
	}
	name, ok := strings.CutPrefix(a.Resource, "cluster/")
	switch {
	case !partitionPattern.MatchString(a.Partition):
		return ClusterARN{}, fmt.Errorf("partition %q is not an AWS partition (aws, aws-cn, aws-us-gov, …) %s", a.Partition, want)
	case a.Service != "eks":
		return ClusterARN{}, fmt.Errorf("service is %q, expected eks %s", a.Service, want)
	case !regionPattern.MatchString(a.Region):
		return ClusterARN{}, fmt.Errorf("region %q is not an AWS region (e.g. eu-west-1) %s", a.Region, want)
	case !accountPattern.MatchString(a.AccountID):
		return ClusterARN{}, fmt.Errorf("account %q is not a 12-digit AWS account ID %s", a.AccountID, want)
	case !ok:
		return ClusterARN{}, fmt.Errorf("resource %q is not a cluster (cluster/<name>) %s", a.Resource, want)
	case !clusterNamePattern.MatchString(name):
		return ClusterARN{}, fmt.Errorf("cluster name %q is not an EKS cluster name (1-100 letters, digits, hyphens and underscores, starting with a letter or digit) %s", name, want)
	}
	return ClusterARN{Partition: a.Partition, Region: a.Region, Account: a.AccountID, Name: name}, nil
}

// CheckClusterName says why name is not an EKS cluster name, or nil.
func CheckClusterName(name string) error {
	if !clusterNamePattern.MatchString(name) {
		return fmt.Errorf("%q is not an EKS cluster name: 1-100 letters, digits, hyphens and underscores, starting with a letter or digit (e.g. prod-euw1)", name)
	}
	return nil
}
