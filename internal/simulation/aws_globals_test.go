package simulation

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	awsv1 "github.com/aws/karpenter-provider-aws/pkg/apis/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// aksOnlyGlobals sets Karpenter's process-wide sets to what they are in a binary that links
// the Azure provider alone (its apis/v1beta1 init, not the AWS provider's) until the test
// ends: AWS's labels neither well known nor restricted, its resources not well known, and
// cloudprovider.ReservationIDLabel unset (the Azure provider never sets it: AKS has no
// reserved offerings).
func aksOnlyGlobals(t *testing.T) {
	wk, rd, wr, rid := karpv1.WellKnownLabels, karpv1.RestrictedLabelDomains, karpv1.WellKnownResources, cloudprovider.ReservationIDLabel
	karpv1.WellKnownLabels = cloud.CoreWellKnownLabels().Union(azv1beta1.AzureWellKnownLabels)
	karpv1.RestrictedLabelDomains = sets.New("karpenter.sh").Insert(azv1beta1.RestrictedLabelDomains...)
	karpv1.WellKnownResources = wr.Clone().Delete(awsv1.ResourceAWSPodENI, awsv1.ResourceAWSNeuron, awsv1.ResourceAWSNeuronCore, awsv1.ResourceHabanaGaudi, awsv1.ResourceEFA)
	cloudprovider.ReservationIDLabel = ""
	t.Cleanup(func() {
		karpv1.WellKnownLabels, karpv1.RestrictedLabelDomains, karpv1.WellKnownResources, cloudprovider.ReservationIDLabel = wk, rd, wr, rid
	})
}

// Linking the AWS provider sets cloudprovider.ReservationIDLabel to AWS's
// karpenter.k8s.aws/capacity-reservation-id and adds AWS's labels to karpv1.WellKnownLabels.
// Upstream reads the reservation label only for offerings of capacity type reserved
// (scheduling's ReservationManager, NodeClaim.FinalizeScheduling), which AKS never offers, and
// the analysis and the emulation judge an AKS pool with the AKS label set. Proof: AKS pools
// and pods that name AWS's reservation label (a pool defining it, a pod selecting a value the
// pool does not have, a pod selecting it on a pool without it, a pod excluding it, a pool
// asking for capacity type reserved) get the same analysis and the same prediction, byte for
// byte, as with the globals an AKS-only build has; and the pod selecting the label on the
// pool without it stays pending as it would there.
func TestAKSUnaffectedByAWSGlobals(t *testing.T) {
	if cloudprovider.ReservationIDLabel != awsv1.LabelCapacityReservationID || !karpv1.WellKnownLabels.Has(awsv1.LabelCapacityReservationID) {
		t.Fatalf("precondition: this binary's globals are AWS's (ReservationIDLabel %q)", cloudprovider.ReservationIDLabel)
	}
	key := awsv1.LabelCapacityReservationID
	req := func(k string, op corev1.NodeSelectorOperator, v ...string) karpv1.NodeSelectorRequirementWithMinValues {
		return karpv1.NodeSelectorRequirementWithMinValues{Key: k, Operator: op, Values: v}
	}
	pools := func() []simmodel.SimPool {
		return []simmodel.SimPool{
			testPool("reserved-ct", 30, nil, nil, req(karpv1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, karpv1.CapacityTypeReserved)),
			testPool("with-reservation", 20, nil, nil, onDemandReq, req(key, corev1.NodeSelectorOpIn, "cr-0123")),
			testPool("plain", 10, nil, nil, onDemandReq),
		}
	}
	workloads := []simmodel.Workload{pods("plain", 2, "1", "2Gi"), pods("reserved", 2, "2", "4Gi"), pods("other-reservation", 1, "1", "1Gi"), pods("unknown-here", 1, "1", "1Gi"), pods("excluding", 1, "1", "1Gi")}
	workloads[1].NodeSelector = map[string]string{key: "cr-0123"}
	workloads[2].NodeSelector = map[string]string{key: "cr-9999"}
	workloads[3].NodeSelector = map[string]string{key: "cr-0123"}
	workloads[3].NodeAffinity = []corev1.NodeSelectorRequirement{{Key: karpv1.NodePoolLabelKey, Operator: corev1.NodeSelectorOpIn, Values: []string{"plain"}}}
	workloads[4].NodeAffinity = []corev1.NodeSelectorRequirement{{Key: key, Operator: corev1.NodeSelectorOpDoesNotExist}}

	run := func() (analyses, prediction string) {
		s := analysis.New(catalog.Default()) // fresh caches: nothing computed under the other globals
		var b strings.Builder
		for _, p := range pools() {
			a := s.Analyze(p.Pool, analysis.Options{Region: "westeurope"})
			fmt.Fprintf(&b, "%s: %+v\n", p.Pool.Name, a.Summary)
			for _, f := range a.Findings {
				fmt.Fprintf(&b, "  %s %s %s\n", f.Code, f.Path, f.Message)
			}
		}
		sim, err := Predict(s, PredictionInput{Region: "westeurope", Pools: pools(), Pods: simmodel.Pods(workloads)})
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.MarshalIndent(sim, "", " ")
		return b.String(), string(j)
	}
	linkedA, linkedP := run()
	aksOnlyGlobals(t)
	onlyA, onlyP := run()
	if linkedA != onlyA {
		t.Errorf("analysis differs from an AKS-only build's:\nlinked:\n%s\nAKS only:\n%s", linkedA, onlyA)
	}
	if linkedP != onlyP {
		t.Errorf("prediction differs from an AKS-only build's:\nlinked:\n%s\nAKS only:\n%s", linkedP, onlyP)
	}
	var sim simmodel.Simulation
	_ = json.Unmarshal([]byte(linkedP), &sim)
	placed := map[string]string{}
	for _, n := range sim.Nodes {
		for _, pc := range n.Pods {
			placed[pc.Workload] = n.Pool
		}
	}
	pending := map[string]bool{}
	for _, u := range sim.Unschedulable {
		pending[u.Workload] = true
	}
	if placed["reserved"] != "with-reservation" || placed["plain"] == "" || placed["excluding"] != "plain" || !pending["other-reservation"] || !pending["unknown-here"] {
		t.Errorf("placed %v, pending %v; want reserved on with-reservation, excluding on plain, other-reservation and unknown-here pending", placed, pending)
	}
	if !strings.Contains(linkedA, "a label of Karpenter on EKS") {
		t.Errorf("the AKS pool's AWS label is not reported as another cloud's:\n%s", linkedA)
	}
}
