package eks

import (
	"testing"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
)

// TestImportExtendsKarpentersGlobals pins what linking this package does to
// Karpenter's process-wide sets (the AWS provider's apis/v1 init): whoever
// wires EKS into a binary that also serves AKS must expect the AWS labels to
// be well known there too (scheduling.AllowUndefinedWellKnownLabels then
// admits an AKS pool's karpenter.k8s.aws/* requirement), and
// cloudprovider.ReservationIDLabel to be AWS's.
func TestImportExtendsKarpentersGlobals(t *testing.T) {
	for _, l := range []string{LabelInstanceCategory, LabelInstanceFamily, LabelInstanceCPU, LabelTopologyZoneID} {
		if !karpv1.WellKnownLabels.Has(l) {
			t.Errorf("%s is not in karpv1.WellKnownLabels", l)
		}
	}
	if !karpv1.RestrictedLabelDomains.Has("karpenter.k8s.aws") {
		t.Error("karpenter.k8s.aws is not a restricted label domain")
	}
	if !karpv1.WellKnownResources.Has(ResourceAWSPodENI) {
		t.Errorf("%s is not in karpv1.WellKnownResources", ResourceAWSPodENI)
	}
	if cloudprovider.ReservationIDLabel != LabelCapacityReservationID {
		t.Errorf("cloudprovider.ReservationIDLabel = %q, want %q", cloudprovider.ReservationIDLabel, LabelCapacityReservationID)
	}
}
