package benchcmp

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// TestEmulationMatchesUpstreamWithHostPorts checks the host-port bookkeeping against
// Karpenter's scheduler: the emulation adds no usage entry for a port-less pod until a port is
// in use on the NodeClaim, and shares the template's usages until then. Pods with a host port
// come after port-less ones of the same size, so they meet NodeClaims that skipped entries; a
// DaemonSet with a host port makes every NodeClaim start with one in use.
func TestEmulationMatchesUpstreamWithHostPorts(t *testing.T) {
	its := regionTypes(region)
	withPort := func(pods []*corev1.Pod, port int32) []*corev1.Pod {
		for _, p := range pods {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: port, HostPort: port, Protocol: corev1.ProtocolTCP}}
		}
		return pods
	}
	small := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")}
	plain := simmodel.Pods([]simmodel.Workload{{Name: "plain", Count: 12, Requests: small}})
	web := withPort(simmodel.Pods([]simmodel.Workload{{Name: "web", Count: 4, Requests: small}}), 8080)
	exporter := withPort(simmodel.Pods([]simmodel.Workload{{Name: "scrape", Count: 2, Requests: small}}), 9100)
	daemon := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "node-exporter", Namespace: "kube-system", UID: "node-exporter"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")}},
			Ports:     []corev1.ContainerPort{{ContainerPort: 9100, HostPort: 9100, Protocol: corev1.ProtocolTCP}}}}},
	}
	for _, tc := range []struct {
		name    string
		pods    []*corev1.Pod
		daemons []*corev1.Pod
	}{
		{"ports-after-plain", append(append([]*corev1.Pod{}, plain...), web...), nil},
		{"daemon-port", append(append(append([]*corev1.Pod{}, plain...), web...), exporter...), []*corev1.Pod{daemon}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, prof := range profiles[:2] {
				sc := scenario{name: prof.name, pools: prof.pools(), its: map[string][]*cloudprovider.InstanceType{}, pods: tc.pods, daemons: tc.daemons}
				for _, np := range sc.pools {
					sc.its[np.Name] = its
				}
				up, err := upstreamDecision(sc)
				if err != nil {
					t.Fatal(err)
				}
				ours, err := emulatedDecision(sc)
				if err != nil {
					t.Fatal(err)
				}
				if diff := compareDecisions(ours, up); diff != "" {
					t.Errorf("%s: differ: %s", prof.name, diff)
				}
				if len(up.claims) < 4 {
					t.Errorf("%s: %d NodeClaims, want one per pod using port 8080 at least", prof.name, len(up.claims))
				}
				fmt.Printf("%s/%s: %d NodeClaims, %d pending\n", tc.name, prof.name, len(up.claims), up.unschedulable)
			}
		})
	}
}
