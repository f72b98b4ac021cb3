package workload

import (
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Options change how replica counts are read.
type Options struct {
	// HPAMaxReplicas counts a workload that a HorizontalPodAutoscaler scales at the HPA's
	// maxReplicas instead of its own replicas: the cost at peak.
	HPAMaxReplicas bool
	// MaxPods caps the pods read (0: DefaultMaxPods): past it no pod is made and a finding
	// (KRP306) is raised at the workload that crosses it (Set.PastCap).
	MaxPods int
}

// DefaultMaxPods is Kubernetes' documented limit of pods per cluster ("No more than 150,000
// total pods", https://kubernetes.io/docs/setup/best-practices/cluster-large/): past it a
// replica count is almost always a typo, and making its pods alone would take gigabytes.
const DefaultMaxPods = 150000

// Workload is one object that creates pods.
type Workload struct {
	Kind, Namespace, Name string
	File                  string
	Line                  int
	// Replicas is the number of pods it runs at once (DaemonSets: 0, one per node).
	Replicas int
	// ReplicasFrom says where Replicas came from, e.g. "spec.replicas", "default 1",
	// "HorizontalPodAutoscaler/web maxReplicas".
	ReplicasFrom string
	// HPAMinReplicas is the minReplicas of the HorizontalPodAutoscaler that scales it (0 when
	// none does): the fewest pods it runs, whatever Replicas says.
	HPAMinReplicas int
	// Pod is its pod as the API server would create it (requests defaulted from limits).
	Pod *corev1.Pod
	// doc is the document it was read from, for the lines of its fields.
	doc Document
}

// FieldLine is the line a field of the workload (e.g. spec.replicas) was written on, or of
// the deepest written part of it, else the document's line.
func (w Workload) FieldLine(field string) int {
	if w.doc.LineOf == nil && w.doc.Line == 0 {
		return w.Line
	}
	return w.doc.lineOf(splitField(field))
}

// ReplicasField is the field its replica count was read from (spec.replicas, spec.parallelism),
// or "spec" when the count is a default or an HPA's.
func (w Workload) ReplicasField() string {
	if strings.HasPrefix(w.ReplicasFrom, "spec.") {
		return w.ReplicasFrom
	}
	return "spec"
}

// Label names the workload as kubectl does: Deployment/web.
func (w Workload) Label() string { return w.Kind + "/" + w.Name }

// Set is what a set of documents runs.
type Set struct {
	// Workloads are the objects that create pods, DaemonSets included, in document order.
	Workloads []Workload
	// Pods are the pending pods: every replica of every workload but the DaemonSets.
	Pods []*corev1.Pod
	// DaemonSets holds one pod per DaemonSet; Karpenter adds those that can run on a node to
	// every node it launches.
	DaemonSets []*corev1.Pod
	// Budgets are the PodDisruptionBudgets (policy/v1), in document order.
	Budgets  []Budget
	Findings []Finding
	// Assumptions say where the pods may differ from the cluster's, e.g. a RuntimeClass the
	// input does not hold.
	Assumptions []string
	// PastCap is set when the workloads hold more pods than Options.MaxPods: Pods is then
	// incomplete and must not be simulated (a KRP306 finding says where).
	PastCap bool
}

// podKinds are the kinds whose pods are read, by group and kind.
var podKinds = map[schema.GroupKind]func() any{
	{Group: "apps", Kind: "Deployment"}:                     func() any { return &appsv1.Deployment{} },
	{Group: "apps", Kind: "ReplicaSet"}:                     func() any { return &appsv1.ReplicaSet{} },
	{Group: "apps", Kind: "StatefulSet"}:                    func() any { return &appsv1.StatefulSet{} },
	{Group: "apps", Kind: "DaemonSet"}:                      func() any { return &appsv1.DaemonSet{} },
	{Group: "batch", Kind: "Job"}:                           func() any { return &batchv1.Job{} },
	{Group: "batch", Kind: "CronJob"}:                       func() any { return &batchv1.CronJob{} },
	{Group: "", Kind: "Pod"}:                                func() any { return &corev1.Pod{} },
	{Group: "", Kind: "ReplicationController"}:              func() any { return &corev1.ReplicationController{} },
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: nil, // read by hpas
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:            nil, // read by runtimeClasses
}

// Read returns the workloads of the documents and the problems found. Documents of kinds that
// create no pods (Services, ConfigMaps, NodePools, ...) are passed over; a kind that may
// create pods but is not read (a custom resource, a pod template in another API group) gets
// a note.
func Read(docs []Document, opts Options) *Set {
	s := &Set{}
	scalers := hpas(docs, s)
	classes := runtimeClasses(docs, s)
	ranges := limitRanges(docs, s)
	s.Budgets = budgets(docs, s)
	seen := map[string]Workload{}
	for _, d := range docs {
		apiVersion, _ := d.Body["apiVersion"].(string)
		kind, _ := d.Body["kind"].(string)
		gv, err := schema.ParseGroupVersion(apiVersion)
		if err != nil || kind == "" {
			continue // not a Kubernetes object; review reports what it must
		}
		gk := gv.WithKind(kind).GroupKind()
		newObj, known := podKinds[gk]
		if moved, ok := servedVersions[schema.GroupKind{Group: "apps", Kind: kind}]; ok && gk.Group == "extensions" {
			s.malformed(d, kind, "apiVersion", fmt.Sprintf("%s %s is not served by current Kubernetes (removed in 1.16)", apiVersion, kind),
				fmt.Sprintf("Use apiVersion %s.", moved))
			continue
		}
		if !known {
			if !passive(gk) && mayCreatePods(d.Body) {
				s.note(d, kind, fmt.Sprintf("%s %s is not read as a workload: pods it creates are not simulated", apiVersion, kind),
					"Render it to the Deployments, StatefulSets, Jobs or Pods it creates (e.g. kubectl get -o yaml) to include its pods.")
			}
			continue
		}
		if newObj == nil {
			continue
		}
		if !servedVersion(gk, gv.Version) {
			s.malformed(d, kind, "apiVersion", fmt.Sprintf("%s %s is not served by current Kubernetes", apiVersion, kind),
				fmt.Sprintf("Use apiVersion %s.", servedVersions[gk]))
			continue
		}
		if !s.quantities(d, kind) {
			continue
		}
		obj := newObj()
		if err := decode(d.Body, obj); err != nil {
			s.decodeError(d, kind, err)
			continue
		}
		w, ok := s.workload(d, obj, scalers, classes, ranges, opts)
		if !ok {
			continue
		}
		key := w.Kind + "/" + w.Namespace + "/" + w.Name
		if first, dup := seen[key]; dup {
			s.Findings = append(s.Findings, Finding{Finding: findings.Finding{Code: findings.DuplicateObject, Object: w.Label(), Path: "metadata.name",
				Message: fmt.Sprintf("%s in namespace %s is defined twice (first at %s:%d): the cluster holds one, so it is simulated once", w.Label(), w.Namespace, first.File, first.Line),
				Fix:     "Remove one of the two, rename one, or map their files to different clusters in .karpenter-review.yaml."},
				File: d.File, Line: d.lineOf([]string{"metadata", "name"})})
			continue
		}
		seen[key] = w
		if w.Kind == "DaemonSet" {
			s.Workloads = append(s.Workloads, w)
			s.DaemonSets = append(s.DaemonSets, replica(w, 0))
			continue
		}
		s.requestsFinding(d, w)
		s.Workloads = append(s.Workloads, w)
		if s.PastCap || s.pastCap(w, opts) {
			continue
		}
		for i := 0; i < w.Replicas; i++ {
			s.Pods = append(s.Pods, replica(w, i))
		}
	}
	return s
}

// pastCap raises KRP306 at the workload whose replicas take the pods read past the cap, and
// stops the pods being made.
func (s *Set) pastCap(w Workload, opts Options) bool {
	limit := opts.MaxPods
	if limit <= 0 {
		limit = DefaultMaxPods
	}
	total := len(s.Pods) + w.Replicas
	if total <= limit {
		return false
	}
	s.PastCap, s.Pods = true, nil
	field := w.ReplicasField()
	s.Findings = append(s.Findings, Finding{Finding: findings.Finding{Code: findings.PodsPastClusterLimits, Object: w.Label(), Path: field,
		Message: fmt.Sprintf("%s runs %d pods (%s), which takes the workloads to %d pods, past the cap of %d pods per cluster (Kubernetes' documented limit is 150,000): "+
			"nothing was simulated", w.Label(), w.Replicas, w.ReplicasFrom, total, limit),
		Fix: fmt.Sprintf("Check %s of %s for a typo; if the count is meant, raise the cap (--max-pods %d, or max_pods on the data source).", w.ReplicasFrom, w.Label(), total)},
		File: w.File, Line: w.FieldLine(field)})
	return true
}

// mayCreatePods tells a custom resource that runs pods (an Argo Rollout, a database operator's
// cluster) from one that does not (an ExternalSecret): it names containers, a pod template or
// a replica count somewhere in its spec.
func mayCreatePods(body map[string]any) bool {
	var walk func(v any, depth int) bool
	walk = func(v any, depth int) bool {
		if depth > 12 {
			return false
		}
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch k {
				case "containers", "template", "podTemplate", "jobTemplate", "replicas", "instances":
					return true
				}
				if walk(e, depth+1) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return walk(body["spec"], 0)
}

// passive kinds create no pods of their own, or are Karpenter's: they are passed over quietly.
func passive(gk schema.GroupKind) bool {
	switch gk.Group {
	case "", "rbac.authorization.k8s.io", "networking.k8s.io", "policy", "storage.k8s.io", "scheduling.k8s.io",
		"apiextensions.k8s.io", "admissionregistration.k8s.io", "coordination.k8s.io", "discovery.k8s.io",
		"karpenter.sh", "karpenter.azure.com", "kustomize.config.k8s.io", "config.kubernetes.io", "autoscaling",
		"certificates.k8s.io", "node.k8s.io", "resource.k8s.io", "gateway.networking.k8s.io", "monitoring.coreos.com",
		"cert-manager.io", "apiregistration.k8s.io", "flowcontrol.apiserver.k8s.io":
		return true
	}
	return strings.HasSuffix(gk.Group, ".fluxcd.io") || gk.Group == "argoproj.io" && gk.Kind != "Rollout"
}

func (s *Set) note(d Document, kind, msg, fix string) {
	s.Findings = append(s.Findings, Finding{Finding: findings.Finding{Code: findings.WorkloadSkipped, Object: label(d, kind), Path: "kind",
		Message: msg,
		Fix:     fix},
		File: d.File, Line: d.lineOf([]string{"kind"})})
}

func (s *Set) malformed(d Document, kind, field, msg, fix string) {
	s.Findings = append(s.Findings, Finding{Finding: findings.Finding{Code: findings.MalformedWorkload, Object: label(d, kind), Path: field,
		Message: msg,
		Fix:     fix},
		File: d.File, Line: d.lineOf(splitField(field))})
}

func label(d Document, kind string) string {
	meta, _ := d.Body["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	if name == "" {
		name, _ = meta["generateName"].(string)
	}
	return kind + "/" + name
}
