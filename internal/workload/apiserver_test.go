package workload

import (
	"context"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/testenv"
)

// The cluster also runs the disruption controller, for TestBudgetStatusMatchesDisruptionController.
func TestMain(m *testing.M) { testenv.MainWith(m, testenv.Options{DisruptionController: true}) }

var (
	runtimeClassesGVR = schema.GroupVersionResource{Group: "node.k8s.io", Version: "v1", Resource: "runtimeclasses"}
	podsGVR           = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploymentsGVR    = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

// The API server is the oracle for the requests of a pod: each pod goes to the real
// kube-apiserver (dry run), and the requests it holds after its defaulting must be the ones
// the reader computed, container by container.
func TestRequestsMatchAPIServerDefaulting(t *testing.T) {
	c := testenv.Get(t)
	ctx := context.Background()
	for _, text := range []string{
		`{apiVersion: v1, kind: Pod, metadata: {name: limits-only}, spec: {containers: [{name: a, image: x, resources: {limits: {cpu: "2", memory: 1Gi}}}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: partial}, spec: {containers: [{name: a, image: x, resources: {requests: {cpu: 100m}, limits: {cpu: "2", memory: 1Gi}}}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: init-limits}, spec: {initContainers: [{name: i, image: x, resources: {limits: {cpu: "3", memory: 64Mi}}}], containers: [{name: a, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: sidecar}, spec: {initContainers: [{name: mesh, image: x, restartPolicy: Always, resources: {requests: {cpu: 200m}, limits: {memory: 256Mi}}}], containers: [{name: a, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: none}, spec: {containers: [{name: a, image: x}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: extended}, spec: {containers: [{name: a, image: x, resources: {limits: {nvidia.com/gpu: "1", ephemeral-storage: 1Gi}}}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: host-net}, spec: {hostNetwork: true, containers: [{name: a, image: x, ports: [{containerPort: 9100}, {containerPort: 53, protocol: UDP}]}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: ports}, spec: {containers: [{name: a, image: x, ports: [{containerPort: 8080}, {containerPort: 80, hostPort: 8081}]}]}}`,
	} {
		d := docs(t, text)
		s := Read(d, Options{})
		if len(s.Pods) != 1 {
			t.Fatalf("%s: %d pods, findings %+v", text, len(s.Pods), s.Findings)
		}
		ours := s.Pods[0]
		got, err := c.Dynamic.Resource(podsGVR).Namespace("default").Create(ctx, &unstructured.Unstructured{Object: d[0].Body}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			t.Fatalf("%s: the API server rejects it: %v", ours.Name, err)
		}
		var server corev1.Pod
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(got.Object, &server); err != nil {
			t.Fatal(err)
		}
		for i, sc := range append(server.Spec.InitContainers, server.Spec.Containers...) {
			oc := append(ours.Spec.InitContainers, ours.Spec.Containers...)[i]
			if !equalLists(sc.Resources.Requests, oc.Resources.Requests) {
				t.Errorf("%s container %s: API server requests %v, reader %v", ours.Name, sc.Name, sc.Resources.Requests, oc.Resources.Requests)
			}
			if !reflect.DeepEqual(sc.Ports, oc.Ports) {
				t.Errorf("%s container %s: API server ports %+v, reader %+v", ours.Name, sc.Name, sc.Ports, oc.Ports)
			}
		}
		if !equalLists(Requests(&server), Requests(ours)) {
			t.Errorf("%s: pod requests %v on the server, %v read", ours.Name, Requests(&server), Requests(ours))
		}
	}
}

func equalLists(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || v.Cmp(w) != 0 {
			return false
		}
	}
	return true
}

// What the reader calls malformed, the API server rejects; what it reads, the server accepts.
func TestMalformedMatchesAPIServer(t *testing.T) {
	c := testenv.Get(t)
	ctx := context.Background()
	deployment := func(name, replicas, labels, nodeSelector, requests string) string {
		return `{apiVersion: apps/v1, kind: Deployment, metadata: {name: ` + name + `}, spec: {replicas: ` + replicas +
			`, selector: {matchLabels: {app: x}}, template: {metadata: {labels: {app: x` + labels + `}}, spec: {nodeSelector: {` + nodeSelector +
			`}, containers: [{name: a, image: x, resources: {requests: {` + requests + `}}}]}}}}`
	}
	for _, tc := range []struct {
		text      string
		malformed bool
	}{
		{deployment("good", "2", "", "ssd: \"yes\"", "cpu: 1, memory: 1Gi"), false},
		{deployment("float-cpu", "2", "", "", "cpu: 0.5, memory: 1e9"), false},
		{deployment("string-replicas", `"2"`, "", "", "cpu: 1"), true},
		{deployment("bool-selector", "2", "", "ssd: yes", "cpu: 1"), true},
		{deployment("number-label", "2", ", version: 1.10", "", "cpu: 1"), true},
		{deployment("bad-quantity", "2", "", "", "cpu: 2 cores"), true},
	} {
		d := docs(t, tc.text)
		s := Read(d, Options{})
		malformed := len(s.Findings) > 0 && s.Findings[0].Code == findings.MalformedWorkload
		_, err := c.Dynamic.Resource(deploymentsGVR).Namespace("default").Create(ctx, &unstructured.Unstructured{Object: d[0].Body}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if rejected := err != nil; rejected != tc.malformed || malformed != tc.malformed {
			t.Errorf("%s: reader malformed %v (%+v), API server rejects %v (%v); want %v", strings.SplitN(tc.text, "name: ", 2)[1][:14], malformed, s.Findings, rejected, err, tc.malformed)
		}
	}
}

// The RuntimeClass admission plugin is the oracle for overhead and scheduling. The same
// RuntimeClass is in the API server and in the input. A pod's requests, node selector and
// tolerations after admission are the reader's, and what admission rejects the reader calls
// malformed.
func TestRuntimeClassMatchesAPIServer(t *testing.T) {
	c := testenv.Get(t)
	ctx := context.Background()
	class := `{apiVersion: node.k8s.io/v1, kind: RuntimeClass, metadata: {name: sandboxed}, handler: kata, overhead: {podFixed: {cpu: 250m, memory: 160Mi}}, scheduling: {nodeSelector: {sandbox: "true"}, tolerations: [{key: sandbox, operator: Exists, effect: NoSchedule}]}}`
	rc := docs(t, class)[0]
	if _, err := c.Dynamic.Resource(runtimeClassesGVR).Create(ctx, &unstructured.Unstructured{Object: rc.Body}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Dynamic.Resource(runtimeClassesGVR).Delete(ctx, "sandboxed", metav1.DeleteOptions{}) })
	for _, tc := range []struct {
		pod      string
		rejected bool
	}{
		{`{apiVersion: v1, kind: Pod, metadata: {name: sandboxed}, spec: {runtimeClassName: sandboxed, containers: [{name: a, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]}}`, false},
		{`{apiVersion: v1, kind: Pod, metadata: {name: same-overhead}, spec: {runtimeClassName: sandboxed, overhead: {cpu: 250m, memory: 160Mi}, containers: [{name: a, image: x}]}}`, false},
		{`{apiVersion: v1, kind: Pod, metadata: {name: other-overhead}, spec: {runtimeClassName: sandboxed, overhead: {cpu: 1}, containers: [{name: a, image: x}]}}`, true},
		{`{apiVersion: v1, kind: Pod, metadata: {name: no-class}, spec: {overhead: {cpu: 1}, containers: [{name: a, image: x}]}}`, true},
		{`{apiVersion: v1, kind: Pod, metadata: {name: conflict}, spec: {runtimeClassName: sandboxed, nodeSelector: {sandbox: "false"}, containers: [{name: a, image: x}]}}`, true},
	} {
		d := docs(t, tc.pod+"\n---\n"+class)
		s := Read(d, Options{})
		got, err := c.Dynamic.Resource(podsGVR).Namespace("default").Create(ctx, &unstructured.Unstructured{Object: d[0].Body}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if (err != nil) != tc.rejected || (len(s.Pods) == 0) != tc.rejected {
			t.Errorf("%s: API server error %v; reader pods %d, findings %+v", tc.pod[40:70], err, len(s.Pods), s.Findings)
			continue
		}
		if tc.rejected {
			continue
		}
		var server corev1.Pod
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(got.Object, &server); err != nil {
			t.Fatal(err)
		}
		ours := s.Pods[0]
		if !equalLists(Requests(&server), Requests(ours)) || server.Spec.NodeSelector["sandbox"] != ours.Spec.NodeSelector["sandbox"] ||
			len(server.Spec.Tolerations) == 0 || len(ours.Spec.Tolerations) == 0 {
			t.Errorf("%s: server requests %v selector %v tolerations %v; reader %v %v %v", server.Name, Requests(&server), server.Spec.NodeSelector,
				server.Spec.Tolerations, Requests(ours), ours.Spec.NodeSelector, ours.Spec.Tolerations)
		}
	}
}

// The LimitRanger admission plugin is the oracle for namespace defaults: with the same
// LimitRange in the API server and in the input, containers' requests after admission are
// the reader's (the LimitRange's own defaults included: defaultRequest from default, min).
func TestLimitRangeMatchesAPIServer(t *testing.T) {
	c := testenv.Get(t)
	ctx := context.Background()
	namespaces := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	limitRangesGVR := schema.GroupVersionResource{Version: "v1", Resource: "limitranges"}
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "limits"}}}
	if _, err := c.Dynamic.Resource(namespaces).Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Dynamic.Resource(namespaces).Delete(ctx, "limits", metav1.DeleteOptions{}) })
	lr := `{apiVersion: v1, kind: LimitRange, metadata: {name: defaults, namespace: limits}, spec: {limits: [{type: Container, default: {cpu: 500m}, defaultRequest: {memory: 256Mi}, min: {ephemeral-storage: 1Gi}, max: {memory: 4Gi}}]}}`
	if _, err := c.Dynamic.Resource(limitRangesGVR).Namespace("limits").Create(ctx, &unstructured.Unstructured{Object: docs(t, lr)[0].Body}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, pod := range []string{
		`{apiVersion: v1, kind: Pod, metadata: {name: bare, namespace: limits}, spec: {containers: [{name: a, image: x}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: own-cpu, namespace: limits}, spec: {containers: [{name: a, image: x, resources: {requests: {cpu: 200m}}}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: limits, namespace: limits}, spec: {containers: [{name: a, image: x, resources: {limits: {cpu: "1", memory: 1Gi}}}]}}`,
		`{apiVersion: v1, kind: Pod, metadata: {name: init, namespace: limits}, spec: {initContainers: [{name: i, image: x}], containers: [{name: a, image: x, resources: {requests: {memory: 3Gi}}}]}}`,
	} {
		d := docs(t, pod+"\n---\n"+lr)
		s := Read(d, Options{})
		if len(s.Pods) != 1 {
			t.Fatalf("%s: findings %+v", pod, s.Findings)
		}
		got, err := c.Dynamic.Resource(podsGVR).Namespace("limits").Create(ctx, &unstructured.Unstructured{Object: d[0].Body}, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			t.Fatalf("%s: the API server rejects it: %v", pod, err)
		}
		var server corev1.Pod
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(got.Object, &server); err != nil {
			t.Fatal(err)
		}
		ours := s.Pods[0]
		for i, sc := range append(server.Spec.InitContainers, server.Spec.Containers...) {
			oc := append(ours.Spec.InitContainers, ours.Spec.Containers...)[i]
			if !equalLists(sc.Resources.Requests, oc.Resources.Requests) {
				t.Errorf("%s container %s: API server requests %v, reader %v", ours.Name, sc.Name, sc.Resources.Requests, oc.Resources.Requests)
			}
		}
	}
}
