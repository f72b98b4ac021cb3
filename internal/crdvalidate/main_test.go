package crdvalidate

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The parity tests judge every object both offline and by the real API server of the local
// test cluster; the unit tests do not need the cluster and run either way.
func TestMain(m *testing.M) { testenv.Main(m) }
