package bicep

import (
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// TestMain starts the local kube-apiserver with the Karpenter CRDs for the object tests; the
// other tests do not use it.
func TestMain(m *testing.M) { testenv.Main(m) }
