package workload

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// docs parses a multi-document YAML stream as kubectl does (sigs.k8s.io/yaml, YAML 1.1).
func docs(t *testing.T, text string) []Document {
	t.Helper()
	var out []Document
	for i, part := range strings.Split(text, "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(part), &m); err != nil {
			t.Fatalf("document %d: %v", i, err)
		}
		out = append(out, Document{File: "w.yaml", Line: i + 1, Body: m})
	}
	return out
}

func q(s string) resource.Quantity { return resource.MustParse(s) }

func TestRead(t *testing.T) {
	cases := []struct {
		name, yaml string
		opts       Options
		pods       int
		daemons    int
		// requests of each pod (of the first workload)
		cpu, memory string
		codes       []findings.Code
		check       func(t *testing.T, s *Set)
	}{
		{name: "deployment", pods: 3, cpu: "500m", memory: "1Gi", yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 3
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {kubernetes.io/os: linux}
      tolerations: [{key: dedicated, operator: Equal, value: web, effect: NoSchedule}]
      topologySpreadConstraints:
      - {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{matchExpressions: [{key: karpenter.sh/capacity-type, operator: In, values: [spot]}]}]
      containers:
      - name: app
        resources: {requests: {cpu: 250m, memory: 512Mi}}
      - name: proxy
        resources: {requests: {cpu: 250m, memory: 512Mi}}`,
			check: func(t *testing.T, s *Set) {
				p := s.Pods[2]
				if p.Name != "web-2" || p.Namespace != "shop" || p.Labels["app"] != "web" || p.Status.Phase != corev1.PodPending {
					t.Errorf("pod meta = %s/%s %v %s", p.Namespace, p.Name, p.Labels, p.Status.Phase)
				}
				if p.Spec.NodeSelector["kubernetes.io/os"] != "linux" || len(p.Spec.Tolerations) != 1 || len(p.Spec.TopologySpreadConstraints) != 1 ||
					p.Spec.Affinity.NodeAffinity == nil {
					t.Errorf("scheduling constraints lost: %+v", p.Spec)
				}
				if s.Workloads[0].ReplicasFrom != "spec.replicas" {
					t.Errorf("ReplicasFrom = %q", s.Workloads[0].ReplicasFrom)
				}
			}},
		{name: "replicas omitted default to one", pods: 1, cpu: "1", memory: "1Gi", yaml: `
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  template:
    spec:
      containers: [{name: db, resources: {requests: {cpu: "1", memory: 1Gi}}}]`,
			check: func(t *testing.T, s *Set) {
				if s.Pods[0].Name != "db-0" || s.Pods[0].Namespace != "default" || s.Workloads[0].ReplicasFrom != "default 1" {
					t.Errorf("pod %s/%s from %q", s.Pods[0].Namespace, s.Pods[0].Name, s.Workloads[0].ReplicasFrom)
				}
			}},
		{name: "limits stand in for requests", pods: 2, cpu: "2", memory: "256Mi", yaml: `
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: a, resources: {requests: {memory: 256Mi}, limits: {cpu: "2", memory: 1Gi}}}]`},
		{name: "init container larger than containers", pods: 1, cpu: "2", memory: "1Gi", yaml: `
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers: [{name: migrate, resources: {requests: {cpu: "2", memory: 100Mi}}}]
  containers: [{name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}]`},
		{name: "sidecar init container adds to containers", pods: 1, cpu: "1500m", memory: "1536Mi", yaml: `
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - {name: mesh, restartPolicy: Always, resources: {requests: {cpu: "1", memory: 512Mi}}}
  containers: [{name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}]`},
		{name: "pod overhead from its RuntimeClass", pods: 1, cpu: "750m", memory: "1144Mi", yaml: `
apiVersion: v1
kind: Pod
metadata: {name: kata}
spec:
  runtimeClassName: kata
  containers: [{name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m, memory: 120Mi}}
scheduling:
  nodeSelector: {kata: "true"}
  tolerations: [{key: kata, operator: Exists, effect: NoSchedule}]`,
			check: func(t *testing.T, s *Set) {
				p := s.Pods[0]
				if p.Spec.NodeSelector["kata"] != "true" || len(p.Spec.Tolerations) != 1 || len(s.Assumptions) != 0 {
					t.Errorf("RuntimeClass scheduling not applied: %v %v %v", p.Spec.NodeSelector, p.Spec.Tolerations, s.Assumptions)
				}
			}},
		{name: "overhead without a RuntimeClass that defines it", pods: 0, codes: []findings.Code{findings.MalformedWorkload}, yaml: `
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  overhead: {cpu: 250m}
  containers: [{name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}]`},
		{name: "overhead that differs from the RuntimeClass", pods: 0, codes: []findings.Code{findings.MalformedWorkload}, yaml: `
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  runtimeClassName: kata
  overhead: {cpu: 100m}
  containers: [{name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}]
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: kata}
handler: kata
overhead: {podFixed: {cpu: 250m}}`},
		{name: "RuntimeClass not in the input", pods: 1, cpu: "500m", memory: "1Gi", yaml: `
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  runtimeClassName: gvisor
  containers: [{name: a, resources: {requests: {cpu: 500m, memory: 1Gi}}}]`,
			check: func(t *testing.T, s *Set) {
				if len(s.Assumptions) != 1 || !strings.Contains(s.Assumptions[0], `RuntimeClass "gvisor" is not in the input`) {
					t.Errorf("assumptions = %v", s.Assumptions)
				}
			}},
		{name: "job parallelism bounded by completions", pods: 2, cpu: "1", memory: "1Gi", yaml: `
apiVersion: batch/v1
kind: Job
metadata: {name: batch}
spec:
  parallelism: 5
  completions: 2
  template:
    spec:
      restartPolicy: Never
      containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]`},
		{name: "cronjob one run", pods: 3, cpu: "1", memory: "1Gi", yaml: `
apiVersion: batch/v1
kind: CronJob
metadata: {name: nightly}
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    spec:
      parallelism: 3
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]`,
			check: func(t *testing.T, s *Set) {
				if got := s.Workloads[0].ReplicasFrom; got != "one run: spec.jobTemplate.spec.parallelism" {
					t.Errorf("ReplicasFrom = %q", got)
				}
			}},
		{name: "suspended cronjob runs nothing", pods: 0, yaml: `
apiVersion: batch/v1
kind: CronJob
metadata: {name: paused}
spec:
  schedule: "@daily"
  suspend: true
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}}}`},
		{name: "hpa max replicas", opts: Options{HPAMaxReplicas: true}, pods: 10, cpu: "1", memory: "2Gi", yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: "1", memory: 2Gi}}}]}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}
  minReplicas: 2
  maxReplicas: 10`,
			check: func(t *testing.T, s *Set) {
				if got := s.Workloads[0].ReplicasFrom; got != "HorizontalPodAutoscaler/api maxReplicas" {
					t.Errorf("ReplicasFrom = %q", got)
				}
			}},
		{name: "hpa ignored without the option", pods: 2, cpu: "1", memory: "2Gi", yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: "1", memory: 2Gi}}}]}}
---
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: api}
spec: {scaleTargetRef: {kind: Deployment, name: api}, maxReplicas: 10}`},
		{name: "hpa in another namespace does not apply", opts: Options{HPAMaxReplicas: true}, pods: 2, cpu: "1", memory: "2Gi", yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: a}
spec:
  replicas: 2
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: "1", memory: 2Gi}}}]}}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: api, namespace: b}
spec: {scaleTargetRef: {kind: Deployment, name: api}, maxReplicas: 10}`},
		{name: "daemonset", pods: 0, daemons: 1, yaml: `
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: 100m, memory: 128Mi}}}]}}`,
			check: func(t *testing.T, s *Set) {
				if r := Requests(s.DaemonSets[0]); r.Cpu().Cmp(q("100m")) != 0 {
					t.Errorf("daemon cpu = %v", r.Cpu())
				}
			}},
		{name: "pod without requests", pods: 1, codes: []findings.Code{findings.PodWithoutRequests}, yaml: `
apiVersion: v1
kind: ReplicationController
metadata: {name: legacy}
spec:
  replicas: 1
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: 100m}}}]}}`,
			check: func(t *testing.T, s *Set) {
				f := s.Findings[0]
				if !strings.Contains(f.Message, "request no memory") || f.Object != "ReplicationController/legacy" || f.Path != "spec.template.spec.containers" {
					t.Errorf("finding = %+v", f)
				}
			}},
		{name: "namespace LimitRange defaults", pods: 1, cpu: "250m", memory: "512Mi", yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: team}
spec:
  template: {spec: {containers: [{name: a}]}}
---
apiVersion: v1
kind: LimitRange
metadata: {name: defaults, namespace: team}
spec:
  limits: [{type: Container, default: {memory: 512Mi}, defaultRequest: {cpu: 250m}}]
---
apiVersion: v1
kind: LimitRange
metadata: {name: elsewhere, namespace: other}
spec:
  limits: [{type: Container, defaultRequest: {cpu: "4"}}]`},
		{name: "defined twice counts once", pods: 2, cpu: "1", memory: "1Gi", codes: []findings.Code{findings.DuplicateObject}, yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 5
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 0
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}`},
		{name: "unknown kind is a note", pods: 0, codes: []findings.Code{findings.WorkloadSkipped}, yaml: `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: canary}
spec: {replicas: 3}
---
apiVersion: v1
kind: Service
metadata: {name: quiet}
---
apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata: {name: quiet}
spec: {refreshInterval: 1h, target: {name: db}}`},
		{name: "unquoted yes in a node selector", pods: 0, codes: []findings.Code{findings.MalformedWorkload}, yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    spec:
      nodeSelector: {ssd: yes}
      containers: [{name: a}]`,
			check: func(t *testing.T, s *Set) {
				f := s.Findings[0]
				if f.Path != "spec.template.spec.nodeSelector.ssd" || !strings.Contains(f.Fix, "Quote the value") {
					t.Errorf("finding = %+v", f)
				}
			}},
		{name: "version label read as a number", pods: 0, codes: []findings.Code{findings.MalformedWorkload}, yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template:
    metadata: {labels: {version: 1.10}}
    spec: {containers: [{name: a}]}`},
		{name: "replicas as a string", pods: 0, codes: []findings.Code{findings.MalformedWorkload}, yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: "3"
  template: {spec: {containers: [{name: a}]}}`,
			check: func(t *testing.T, s *Set) {
				if s.Findings[0].Path != "spec.replicas" {
					t.Errorf("field = %q", s.Findings[0].Path)
				}
			}},
		{name: "bad quantity at its field", pods: 0, codes: []findings.Code{findings.MalformedWorkload}, yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: 2 cores}}}]}}`,
			check: func(t *testing.T, s *Set) {
				if f := s.Findings[0].Path; f != "spec.template.spec.containers[0].resources.requests.cpu" {
					t.Errorf("field = %q", f)
				}
			}},
		{name: "removed api version", pods: 0, codes: []findings.Code{findings.MalformedWorkload, findings.MalformedWorkload}, yaml: `
apiVersion: extensions/v1beta1
kind: Deployment
metadata: {name: old}
spec: {template: {spec: {containers: [{name: a}]}}}
---
apiVersion: batch/v1beta1
kind: CronJob
metadata: {name: old}
spec: {schedule: "@daily", jobTemplate: {spec: {template: {spec: {containers: [{name: a}]}}}}}`},
		{name: "no containers", pods: 0, codes: []findings.Code{findings.MalformedWorkload}, yaml: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: empty}
spec: {template: {spec: {}}}`},
		{name: "bound pod is skipped", pods: 0, codes: []findings.Code{findings.WorkloadSkipped}, yaml: `
apiVersion: v1
kind: Pod
metadata: {name: pinned}
spec: {nodeName: aks-1, containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := Read(docs(t, tc.yaml), tc.opts)
			if len(s.Pods) != tc.pods || len(s.DaemonSets) != tc.daemons {
				t.Fatalf("pods = %d, daemons = %d; want %d, %d", len(s.Pods), len(s.DaemonSets), tc.pods, tc.daemons)
			}
			var codes []findings.Code
			for _, f := range s.Findings {
				codes = append(codes, f.Code)
				if f.File != "w.yaml" || f.Line == 0 || f.Message == "" || f.Fix == "" {
					t.Errorf("finding without place or text: %+v", f)
				}
			}
			if strings.Join(codeStrings(codes), ",") != strings.Join(codeStrings(tc.codes), ",") {
				t.Errorf("findings = %v (%+v), want %v", codes, s.Findings, tc.codes)
			}
			if tc.cpu != "" {
				r := Requests(s.Pods[0])
				if r.Cpu().Cmp(q(tc.cpu)) != 0 || r.Memory().Cmp(q(tc.memory)) != 0 {
					t.Errorf("requests = cpu %v memory %v, want %s %s", r.Cpu(), r.Memory(), tc.cpu, tc.memory)
				}
			}
			if tc.check != nil {
				tc.check(t, s)
			}
		})
	}
}

func codeStrings(cs []findings.Code) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// Replicas of one workload get distinct names and UIDs, as the scheduler needs to tell them apart.
func TestReplicasAreDistinct(t *testing.T) {
	s := Read(docs(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  template: {spec: {containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}`), Options{})
	seen := map[string]bool{}
	for _, p := range s.Pods {
		if seen[p.Name] || seen[string(p.UID)] {
			t.Fatalf("duplicate %s", p.Name)
		}
		seen[p.Name], seen[string(p.UID)] = true, true
	}
	s.Pods[0].Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = q("9")
	if s.Pods[1].Spec.Containers[0].Resources.Requests.Cpu().Cmp(q("1")) != 0 {
		t.Fatal("replicas share their spec")
	}
}

// Karpenter provisions no node for a pod held by scheduling gates.
func TestSchedulingGatedPodsAreSkipped(t *testing.T) {
	s := Read(docs(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: gated}
spec:
  replicas: 2
  template:
    spec:
      schedulingGates: [{name: example.com/quota}]
      containers: [{name: a, resources: {requests: {cpu: "1", memory: 1Gi}}}]`), Options{})
	if len(s.Pods) != 0 || len(s.Findings) != 1 || s.Findings[0].Code != findings.WorkloadSkipped {
		t.Fatalf("pods %d, findings %+v", len(s.Pods), s.Findings)
	}
}

// Whatever shape a document has, the reader reports it and never panics.
func TestReadOddShapes(t *testing.T) {
	for _, body := range []string{
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: [1, 2]}`,
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: {template: {spec: {containers: "x"}}}}`,
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: {template: {spec: {containers: [{name: a, resources: {requests: [1]}}]}}}}`,
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: {template: {spec: {containers: [{name: a, resources: {requests: {cpu: [1]}}}]}}}}`,
		`{apiVersion: apps/v1, kind: Deployment, metadata: {name: a}, spec: {replicas: -1, template: {spec: {containers: [{name: a}]}}}}`,
		`{apiVersion: batch/v1, kind: Job, metadata: "x"}`,
		`{apiVersion: v1, kind: Pod}`,
		`{apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: h}, spec: {maxReplicas: 0}}`,
		`{apiVersion: "a/b/c", kind: Deployment}`,
		`{kind: Deployment}`,
	} {
		s := Read(docs(t, body), Options{HPAMaxReplicas: true})
		if len(s.Pods) != 0 {
			t.Errorf("%s: %d pods", body, len(s.Pods))
		}
		for _, f := range s.Findings {
			if f.Message == "" || f.Code == "" {
				t.Errorf("%s: empty finding %+v", body, f)
			}
		}
		if len(s.Findings) == 0 && body != `{apiVersion: "a/b/c", kind: Deployment}` && body != `{kind: Deployment}` {
			t.Errorf("%s: no finding", body)
		}
	}
}
