package ec2nodeclass

import (
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks/nodeclasscheck"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
)

// report shows the EC2NodeClass findings (KRP120–KRP123) on the attributes they concern. The
// checks see only what is known at plan: a value known after apply is left out, as the
// validation does.
func report(pc *crdresource.PlanContext, known map[string]any) {
	for _, f := range nodeclasscheck.Check(known) {
		pc.ReportFinding(f, crdresource.FindingDetail{Context: "Checked offline against the selection rules of Karpenter's AWS provider v1.14.1."})
	}
}

// locate puts the CRD's rule about the node IAM identity, which the API server reports on the
// spec, on instance_profile when both are set and on role when neither is.
func locate(obj map[string]any, e *field.Error) string {
	switch identity(obj, e) {
	case bothIdentities:
		return "spec.instanceProfile"
	case noIdentity:
		return "spec.role"
	}
	return ""
}

// identityRule is the message of the EC2NodeClass CRD's rule on role and instanceProfile.
const identityRule = "must specify exactly one of ['role', 'instanceProfile']"

// identityCase is how an object breaks the identity rule, for a rejection that is that rule.
type identityCase int

const (
	notIdentityRule identityCase = iota // another rejection
	bothIdentities                      // role and instanceProfile both set
	noIdentity                          // neither set
	otherIdentity                       // the rule, with one of them set (not expected)
)

func identity(obj map[string]any, e *field.Error) identityCase {
	if !strings.Contains(e.Detail, identityRule) {
		return notIdentityRule
	}
	_, role, _ := unstructured.NestedString(obj, "spec", "role")
	_, profile, _ := unstructured.NestedString(obj, "spec", "instanceProfile")
	switch {
	case role && profile:
		return bothIdentities
	case !role && !profile:
		return noIdentity
	}
	return otherIdentity
}

// hint makes the CRD's rule about the node IAM identity say which attributes to change: it
// is reported on the spec (the object as a whole), in the CRD's words.
func hint(obj map[string]any, e *field.Error) string {
	switch identity(obj, e) {
	case notIdentityRule:
		return ""
	case bothIdentities:
		return "Both role and instance_profile are set. Set role (the node IAM role's name, e.g. module.karpenter.node_iam_role_name " +
			"of terraform-aws-modules/eks), for which Karpenter creates and manages the instance profile, or instance_profile " +
			"(an instance profile you manage), not both."
	case noIdentity:
		return "Neither role nor instance_profile is set. Set role to the node IAM role's name (e.g. module.karpenter.node_iam_role_name " +
			"of terraform-aws-modules/eks), or instance_profile to an instance profile you manage."
	}
	return "Set exactly one of role and instance_profile."
}
