package benchcmp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
)

func init() { loadScenarios = loadScenarioDirs }

// loadScenarioDirs reads every directory under dir that holds manifests as one scenario:
// NodePools, AKSNodeClasses, Pods, Deployments, ReplicaSets, StatefulSets, Jobs (replicas or
// parallelism pods from the template) and DaemonSets (one pod each), plus an optional
// scenario.yaml with `region` (default westeurope). Pods of a pool are priced from the
// embedded catalog with the pool's node class (CRD defaults when none is given).
func loadScenarioDirs(dir string) ([]scenario, error) {
	var dirs []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(dirs)
	var out []scenario
	var errs []error
	for _, d := range dirs {
		sc, ok, err := loadScenarioDir(dir, d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if ok {
			out = append(out, sc)
		}
	}
	return out, errors.Join(errs...)
}

var docSeparator = regexp.MustCompile(`(?m)^---\s*$`)

func loadScenarioDir(root, dir string) (scenario, bool, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	sort.Strings(files)
	name, _ := filepath.Rel(root, dir)
	if name == "." {
		name = filepath.Base(dir)
	}
	sc := scenario{name: name, its: map[string][]*cloudprovider.InstanceType{}}
	region := "westeurope"
	classes := map[string]aks.NodeClass{}
	found := false
	var errs []error
	for _, f := range files {
		ext := strings.ToLower(filepath.Ext(f))
		if ext != ".yaml" && ext != ".yml" && ext != ".json" {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return sc, false, err
		}
		if filepath.Base(f) == "scenario.yaml" {
			var cfg struct {
				Region string `json:"region"`
			}
			if err := yaml.Unmarshal(data, &cfg); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", f, err))
			} else if cfg.Region != "" {
				region = cfg.Region
			}
			continue
		}
		for i, doc := range docSeparator.Split(string(data), -1) {
			if len(bytes.TrimSpace([]byte(doc))) == 0 {
				continue
			}
			obj := map[string]any{}
			if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
				errs = append(errs, fmt.Errorf("%s: document %d: %w", f, i+1, err))
				continue
			}
			if len(obj) == 0 {
				continue
			}
			if err := addObject(&sc, classes, obj); err != nil {
				errs = append(errs, fmt.Errorf("%s: document %d: %w", f, i+1, err))
				continue
			}
			found = true
		}
	}
	if len(errs) > 0 {
		return sc, false, errors.Join(errs...)
	}
	if !found {
		return sc, false, nil
	}
	if len(sc.pools) == 0 {
		return sc, false, fmt.Errorf("%s: no NodePool", dir)
	}
	sc.name += "-" + region
	for _, np := range sc.pools {
		nc := classes[""]
		if ref := np.Spec.Template.Spec.NodeClassRef; ref != nil {
			if c, ok := classes[ref.Name]; ok {
				nc = c
			}
		}
		res := aks.List(catalog.Default(), region, nc, aks.Cluster{})
		for _, it := range res.InstanceTypes {
			sc.its[np.Name] = append(sc.its[np.Name], it.InstanceType)
		}
	}
	return sc, true, nil
}

func addObject(sc *scenario, classes map[string]aks.NodeClass, obj map[string]any) error {
	kind, _ := obj["kind"].(string)
	conv := func(into any) error { return runtime.DefaultUnstructuredConverter.FromUnstructured(obj, into) }
	switch kind {
	case "NodePool":
		np := &karpv1.NodePool{}
		if err := conv(np); err != nil {
			return err
		}
		if np.Spec.Template.Spec.NodeClassRef == nil {
			np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.azure.com", Kind: "AKSNodeClass", Name: "default"}
		}
		sc.pools = append(sc.pools, np)
	case "AKSNodeClass":
		nc := &azv1beta1.AKSNodeClass{}
		if err := conv(nc); err != nil {
			return err
		}
		classes[nc.Name] = aks.FromAKSNodeClass(nc)
	case "Pod":
		p := &corev1.Pod{}
		if err := conv(p); err != nil {
			return err
		}
		sc.pods = append(sc.pods, pendingPod(p.ObjectMeta, p.Spec, p.Name))
	case "Deployment", "ReplicaSet", "StatefulSet", "Job":
		var meta metav1.ObjectMeta
		var tmpl corev1.PodTemplateSpec
		n := int32(1)
		switch kind {
		case "Deployment":
			d := &appsv1.Deployment{}
			if err := conv(d); err != nil {
				return err
			}
			meta, tmpl = d.ObjectMeta, d.Spec.Template
			if d.Spec.Replicas != nil {
				n = *d.Spec.Replicas
			}
		case "ReplicaSet":
			d := &appsv1.ReplicaSet{}
			if err := conv(d); err != nil {
				return err
			}
			meta, tmpl = d.ObjectMeta, d.Spec.Template
			if d.Spec.Replicas != nil {
				n = *d.Spec.Replicas
			}
		case "StatefulSet":
			d := &appsv1.StatefulSet{}
			if err := conv(d); err != nil {
				return err
			}
			meta, tmpl = d.ObjectMeta, d.Spec.Template
			if d.Spec.Replicas != nil {
				n = *d.Spec.Replicas
			}
		case "Job":
			d := &batchv1.Job{}
			if err := conv(d); err != nil {
				return err
			}
			meta, tmpl = d.ObjectMeta, d.Spec.Template
			if d.Spec.Parallelism != nil {
				n = *d.Spec.Parallelism
			}
		}
		for i := int32(0); i < n; i++ {
			m := tmpl.ObjectMeta
			m.Namespace = meta.Namespace
			sc.pods = append(sc.pods, pendingPod(m, tmpl.Spec, fmt.Sprintf("%s-%d", meta.Name, i)))
		}
	case "DaemonSet":
		d := &appsv1.DaemonSet{}
		if err := conv(d); err != nil {
			return err
		}
		m := d.Spec.Template.ObjectMeta
		m.Namespace = d.Namespace
		sc.daemons = append(sc.daemons, pendingPod(m, d.Spec.Template.Spec, d.Name))
	default:
		return fmt.Errorf("kind %q is not a scenario manifest (NodePool, AKSNodeClass, Pod, Deployment, ReplicaSet, StatefulSet, Job, DaemonSet)", kind)
	}
	return nil
}

func pendingPod(meta metav1.ObjectMeta, spec corev1.PodSpec, name string) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: *meta.DeepCopy(), Spec: *spec.DeepCopy(), Status: corev1.PodStatus{Phase: corev1.PodPending}}
	p.Name = name
	if p.Namespace == "" {
		p.Namespace = "default"
	}
	p.UID = types.UID(p.Namespace + "/" + name)
	if p.Labels == nil {
		p.Labels = map[string]string{}
	}
	return p
}
