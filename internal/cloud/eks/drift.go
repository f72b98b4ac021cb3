package eks

import (
	"fmt"

	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
)

// NodeClassHash is what the AWS provider's EC2NodeClass hash controller writes
// (pkg/controllers/nodeclass/hash), with the cluster's CA bundle, which it also hashes, taken
// as empty: two hashes computed here compare the specs, not a live object's annotation.
func (c *Cloud) NodeClassHash(obj map[string]any) (cloud.NodeClassHash, error) {
	nc := &awsv1.EC2NodeClass{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj, nc); err != nil {
		return cloud.NodeClassHash{}, fmt.Errorf("reading EC2NodeClass: %w", err)
	}
	return cloud.NodeClassHash{
		Key: awsv1.AnnotationEC2NodeClassHash, VersionKey: awsv1.AnnotationEC2NodeClassHashVersion,
		Hash: nc.Hash(nil), Version: awsv1.EC2NodeClassHashVersion,
	}, nil
}

var _ cloud.Drifter = (*Cloud)(nil)
