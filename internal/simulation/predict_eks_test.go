package simulation

import (
	corev1 "k8s.io/api/core/v1"
	"strings"
	"testing"

	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// A pod selecting on an AWS provider label (karpenter.k8s.aws/instance-family) cannot land on
// an AKS pool that does not define it: Karpenter on AKS does not know the key, so the pod's
// requirement has no known values there. This binary also links the AWS provider, whose init
// adds the key to karpv1.WellKnownLabels; the emulation must use the AKS pool's own set. An
// EKS pool, whose Karpenter knows the key, takes the pod.
func TestPodSelectingOtherCloudsLabel(t *testing.T) {
	pod := simmodel.Pods([]simmodel.Workload{pods("aws-only", 1, "1", "1Gi")})
	pod[0].Spec.NodeSelector = map[string]string{"karpenter.k8s.aws/instance-family": "m5"}
	got, err := Predict(testSolver, PredictionInput{Region: "westeurope", Pools: []simmodel.SimPool{testPool("aks", 0, nil, nil, onDemandReq)}, Pods: pod})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Unschedulable) != 1 || !strings.Contains(got.Unschedulable[0].Reason, "karpenter.k8s.aws/instance-family") {
		t.Fatalf("AKS pool: nodes %+v, unschedulable %+v; want the pod pending on the unknown label", got.Nodes, got.Unschedulable)
	}

	eksPool := testPool("eks", 0, nil, nil, onDemandReq)
	eksPool.Pool.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}
	got, err = Predict(testSolver, PredictionInput{Region: "us-east-1", Pools: []simmodel.SimPool{eksPool}, Pods: pod})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Nodes) != 1 || !strings.HasPrefix(got.Nodes[0].SKU, "m5.") || got.Nodes[0].Zone != "" {
		t.Fatalf("EKS pool: nodes %+v, unschedulable %+v; want one m5 node without a zone", got.Nodes, got.Unschedulable)
	}
}

// The optimum judges a pod's pool compatibility with the pool's cloud's labels too: on an AKS
// pool the AWS-only selector leaves the pod unplaced.
func TestOptimumPodSelectingOtherCloudsLabel(t *testing.T) {
	w := pods("aws-only", 1, "1", "1Gi")
	w.NodeSelector = map[string]string{"karpenter.k8s.aws/instance-family": "m5"}
	got := simulate(t, simmodel.SimulationInput{Pools: []simmodel.SimPool{testPool("aks", 0, nil, nil, onDemandReq)}, Workloads: []simmodel.Workload{w}})
	if len(got.Nodes) != 0 || len(got.Unschedulable) != 1 {
		t.Fatalf("nodes %+v, unschedulable %+v; want the pod unplaced", got.Nodes, got.Unschedulable)
	}
}

// A DaemonSet selecting an AWS provider label is not counted on an AKS pool's nodes (its
// Karpenter does not know the key, and the pool does not define it).
func TestDaemonSelectingOtherCloudsLabel(t *testing.T) {
	ds := DaemonSetPod("aws-agent", nil)
	ds.Spec.NodeSelector = map[string]string{"karpenter.k8s.aws/instance-family": "m5"}
	aks := testPool("aks", 0, nil, nil, onDemandReq)
	if daemonRunsOn(aks.Pool, ds, aks.Cloud(testSolver.Clouds()).WellKnownLabels()) {
		t.Error("the AWS-only DaemonSet runs on the AKS pool")
	}
	if got := DaemonOverheads([]*corev1.Pod{ds}, []simmodel.SimPool{aks})[aks.Pool.Name]; got.Pods().Value() != 0 {
		t.Errorf("overhead %v, want none", got)
	}
}
