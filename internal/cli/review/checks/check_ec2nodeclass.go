package checks

import (
	"context"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/assemble"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/nodeclasscheck"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// CheckEC2NodeClasses reports the EC2NodeClass findings that need no AWS account
// (KRP120–KRP123: selector terms that select everything, nothing or less than they say, an
// @latest AMI in a production-looking class) through the same function as the
// karpenter_ec2nodeclass plan, at the field's file and line.
func CheckEC2NodeClasses(_ context.Context, c *assemble.Cluster) []source.Finding {
	var out []source.Finding
	for _, nc := range c.NodeClasses {
		out = append(out, ec2NodeClassFindings(nc)...)
	}
	return out
}

// ec2NodeClassFindings are the findings of one EC2NodeClass (none for another kind).
func ec2NodeClassFindings(o *source.Object) []source.Finding {
	if o.GVK.GroupKind() != kinds.EC2NodeClass.GVK.GroupKind() {
		return nil
	}
	var out []source.Finding
	for _, f := range nodeclasscheck.Check(o.Body) {
		out = append(out, o.Located(f))
	}
	return out
}
