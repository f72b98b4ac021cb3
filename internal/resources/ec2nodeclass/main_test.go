package ec2nodeclass_test

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The local API server with the EC2NodeClass CRD of the pinned AWS provider installed.
func TestMain(m *testing.M) { testenv.MainWith(m, testenv.Options{EKS: true}) }
