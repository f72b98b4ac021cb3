package benchcmp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	azv1beta1 "github.com/Azure/karpenter-provider-azure/pkg/apis/v1beta1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/checks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/aks/catalog"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cloud/eks"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/crdvalidate"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

func init() { loadScenarios = loadScenarioDirs }

// loadScenarioDirs reads the scenario directories under dir. A scenario directory is the
// shallowest directory on its path that holds manifests (a .yaml, .yml or .json file, a
// kustomization.yaml, a Chart.yaml); everything below it belongs to it (a Kustomize base in a
// subdirectory, say). Its inputs are read as `simulate` reads them: files, directories,
// Kustomize overlays and Helm charts or output through the review's reader, NodePools and
// AKSNodeClasses with the API server's defaults, workloads through internal/workload
// (Deployments, ReplicaSets, StatefulSets, Jobs, CronJobs (one run), Pods, DaemonSets; requests
// as Kubernetes sums them, init containers and RuntimeClass overhead included; an HPA's
// maxReplicas when scenario.yaml says `hpaMaxReplicas: true`). scenario.yaml (optional) gives
// `region` (default westeurope). A document the reader rejects (malformed YAML, an object the
// API server would refuse) fails the load with its file and line; every problem of every
// scenario is reported at once.
func loadScenarioDirs(dir string) ([]scenario, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("SCENARIOS=%s is not a directory", dir)
	}
	var roots []string
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if holdsManifests(path) {
			roots = append(roots, path)
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(roots)
	var out []scenario
	var errs []error
	for _, r := range roots {
		sc, err := loadScenarioDir(dir, r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, sc)
	}
	if len(roots) == 0 {
		errs = append(errs, fmt.Errorf("%s: no directory with manifests (.yaml, .yml, .json, kustomization.yaml, Chart.yaml)", dir))
	}
	return out, errors.Join(errs...)
}

func holdsManifests(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "scenario.yaml" {
			continue
		}
		switch strings.ToLower(filepath.Ext(e.Name())) {
		case ".yaml", ".yml", ".json":
			return true
		}
	}
	return false
}

// scenarioConfig is scenario.yaml.
type scenarioConfig struct {
	Region         string `json:"region"`
	HPAMaxReplicas bool   `json:"hpaMaxReplicas"`
}

func loadScenarioDir(root, dir string) (scenario, error) {
	cfgPath := filepath.Join(dir, "scenario.yaml")
	cfg, err := readScenarioConfig(cfgPath, true)
	if err != nil {
		return scenario{}, err
	}
	return loadScenarioFiles(root, dir, cfg, cfgPath)
}

// readScenarioConfig reads scenario.yaml at path, or the defaults when there is none. A case
// directory of the disruption comparator takes only region, as simulate's scenario.yaml does.
func readScenarioConfig(path string, hpaAllowed bool) (scenarioConfig, error) {
	cfg := scenarioConfig{Region: "westeurope"}
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return cfg, nil
	} else if err != nil {
		return cfg, err
	}
	want := "want region: <Azure region>, hpaMaxReplicas: true|false"
	if !hpaAllowed {
		want = "want region: <Azure or AWS region>, as simulate reads it"
		var only struct {
			Region string `json:"region"`
		}
		if err := yaml.UnmarshalStrict(data, &only); err != nil {
			return cfg, fmt.Errorf("%s: %w (%s)", path, err, want)
		}
		if only.Region != "" {
			cfg.Region = only.Region
		}
		return cfg, nil
	}
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		return cfg, fmt.Errorf("%s: %w (%s)", path, err, want)
	}
	return cfg, nil
}

// loadScenarioFiles reads the manifests of dir with the configuration cfg (read from cfgPath).
func loadScenarioFiles(root, dir string, cfg scenarioConfig, cfgPath string) (scenario, error) {
	name, _ := filepath.Rel(root, dir)
	if name == "." {
		name = filepath.Base(dir)
	}
	sc := scenario{name: name, its: map[string][]*cloudprovider.InstanceType{}}
	var (
		pools, classes []*source.Object
		docs           []workload.Document
		clusters       int
	)
	// The review reads every file of the directory but scenario.yaml, which is no manifest.
	var paths []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		return sc, err
	}
	for _, e := range entries {
		if e.Name() != "scenario.yaml" {
			paths = append(paths, filepath.Join(dir, e.Name()))
		}
	}
	ropts := review.Options{Paths: paths, Region: cfg.Region, Checks: []checks.Check{checks.CheckSchema}, Facts: []checks.FactFunc{}}
	ld, err := review.Load(ropts, true)
	if err != nil {
		return sc, fmt.Errorf("%s: %w", dir, err)
	}
	rv := ld.Review(context.Background(), ropts)
	for _, c := range ld.Clusters {
		clusters++
		pools, classes, docs = append(pools, c.NodePools...), append(classes, c.NodeClasses...), append(docs, c.Documents...)
	}
	var errs []error
	for _, f := range rv.Findings {
		if f.Severity() == findings.Error {
			errs = append(errs, fmt.Errorf("%s:%d: %s", f.File, f.Line, f.Finding.String()))
		}
	}
	set := workload.Read(docs, workload.Options{HPAMaxReplicas: cfg.HPAMaxReplicas})
	for _, f := range set.Findings {
		if f.Severity() == findings.Error {
			errs = append(errs, fmt.Errorf("%s:%d: %s", f.File, f.Line, f.Finding.String()))
		}
	}
	if clusters > 1 {
		errs = append(errs, fmt.Errorf("%s: the objects belong to %d clusters; a scenario is one", dir, clusters))
	}
	nodeClasses := map[string]aks.NodeClass{}
	ec2NodeClasses := map[string]eks.NodeClass{}
	for _, o := range classes {
		if o.GVK.GroupKind() == eks.NodeClassKind {
			body := runtime.DeepCopyJSON(o.Body)
			if k := kinds.ForGroupKind(o.GVK.GroupKind()); k != nil {
				if v, err := crdvalidate.For(k.GVK); err == nil {
					v.Default(body)
				}
			}
			nc, err := eks.NodeClassFromObject(body)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s:%d: EC2NodeClass/%s: %w", o.Source.File, o.Source.Line, o.Name, err))
				continue
			}
			ec2NodeClasses[o.Name] = nc
			continue
		}
		nc := &azv1beta1.AKSNodeClass{}
		if err := fromBody(o, nc); err != nil {
			errs = append(errs, err)
			continue
		}
		nodeClasses[nc.Name] = aks.FromAKSNodeClass(nc)
	}
	for _, o := range pools {
		np := &karpv1.NodePool{}
		if err := fromBody(o, np); err != nil {
			errs = append(errs, err)
			continue
		}
		sc.pools = append(sc.pools, np)
	}
	if len(sc.pools) == 0 {
		errs = append(errs, fmt.Errorf("%s: no NodePool", dir))
	}
	if len(set.Pods) == 0 {
		errs = append(errs, fmt.Errorf("%s: no pods (no Deployment, StatefulSet, Job, ... with replicas)", dir))
	}
	if len(errs) > 0 {
		return sc, errors.Join(errs...)
	}
	region := strings.ToLower(cfg.Region)
	sc.name += "-" + region
	// An EKS scenario is one whose pools name EC2NodeClasses (its scenario.yaml names an AWS
	// region): the pools of one scenario are of one cloud, as a cluster's are.
	for i, np := range sc.pools {
		isEKS := np.Spec.Template.Spec.NodeClassRef.GroupKind() == eks.NodeClassKind
		if i == 0 {
			sc.eks = isEKS
		} else if isEKS != sc.eks {
			return sc, fmt.Errorf("%s: NodePool %q names a %s, the others an %s: a scenario's pools are of one cloud", dir, np.Name, np.Spec.Template.Spec.NodeClassRef.Kind, sc.pools[0].Spec.Template.Spec.NodeClassRef.Kind)
		}
	}
	if sc.eks {
		if !eks.NewCloud(nil).HasRegion(region) {
			return sc, fmt.Errorf("%s: region %q is not an AWS region of the EC2 catalog (the pools name EC2NodeClasses)", cfgPath, cfg.Region)
		}
		for _, np := range sc.pools {
			its, err := eks.InstanceTypes(region, ec2NodeClasses[np.Spec.Template.Spec.NodeClassRef.Name]) // the defaults when not given
			if err != nil {
				return sc, fmt.Errorf("%s: NodePool %q: %w", dir, np.Name, err)
			}
			sc.its[np.Name] = its
		}
		sc.pods = pending(set.Pods, "pod")
		sc.daemons = pending(set.DaemonSets, "daemonset")
		return sc, nil
	}
	for _, np := range sc.pools {
		nc := nodeClasses[np.Spec.Template.Spec.NodeClassRef.Name] // the CRD defaults when not given
		its := aksTypes(region, nc)
		if len(its) == 0 {
			return sc, fmt.Errorf("%s: region %q has no instance types in the catalog", cfgPath, cfg.Region)
		}
		sc.its[np.Name] = its
	}
	sc.pods = pending(set.Pods, "pod")
	sc.daemons = pending(set.DaemonSets, "daemonset")
	return sc, nil
}

// aksTypes are the catalog's instance types for a region and node class (aks.List), derived once
// per process and shared by every pool and scenario that has both, as the seeded corpus shares
// its region's (cachedRegionTypes), and as the Azure provider lists them once per node class:
// deriving them per pool was most of the time loading a scenario directory took.
func aksTypes(region string, nc aks.NodeClass) []*cloudprovider.InstanceType {
	key := aksTypesKey{region, nc}
	aksTypesMu.Lock()
	defer aksTypesMu.Unlock()
	if its, ok := aksTypesCache[key]; ok {
		return its
	}
	var its []*cloudprovider.InstanceType
	for _, it := range aks.List(catalog.Default(), region, nc, aks.Cluster{}).InstanceTypes {
		its = append(its, it.InstanceType)
	}
	aksTypesCache[key] = its
	return its
}

type aksTypesKey struct {
	region string
	nc     aks.NodeClass
}

var (
	aksTypesMu    sync.Mutex
	aksTypesCache = map[aksTypesKey][]*cloudprovider.InstanceType{}
)

// fromBody decodes an object as the API server stores it: its CRD's defaults applied.
func fromBody(o *source.Object, into any) error {
	body := runtime.DeepCopyJSON(o.Body)
	if k := kinds.ForGroupKind(o.GVK.GroupKind()); k != nil {
		if v, err := crdvalidate.For(k.GVK); err == nil {
			v.Default(body)
		}
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(body, into); err != nil {
		return fmt.Errorf("%s:%d: %s/%s: %w", o.Source.File, o.Source.Line, o.GVK.Kind, o.Name, err)
	}
	return nil
}

// pending gives the pods the identity and phase of pending pods: a UID (the scheduler keys
// its caches by it) and unique names.
func pending(pods []*corev1.Pod, prefix string) []*corev1.Pod {
	out := make([]*corev1.Pod, len(pods))
	seen := map[string]int{}
	for i, p := range pods {
		p = p.DeepCopy()
		if p.Namespace == "" {
			p.Namespace = "default"
		}
		if p.Name == "" {
			p.Name = fmt.Sprintf("%s-%d", prefix, i)
		}
		if n := seen[p.Namespace+"/"+p.Name]; n > 0 {
			p.Name = fmt.Sprintf("%s-%d", p.Name, n)
		}
		seen[p.Namespace+"/"+p.Name]++
		p.UID = types.UID(prefix + "/" + p.Namespace + "/" + p.Name)
		if p.Labels == nil {
			p.Labels = map[string]string{}
		}
		p.Status.Phase = corev1.PodPending
		out[i] = p
	}
	return out
}
