package crdresource

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
