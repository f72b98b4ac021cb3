package benchcmp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// loadDisruptionDirs reads the disruption cases under dir (SCENARIOS=DIR): every directory
// holding a before/ subdirectory is a case. before/ is a scenario directory as
// compare-upstream reads it (manifests, and scenario.yaml with the region); after/, when
// there, is the cluster after the change: its NodePools replace before's (a changed pool
// drifts its nodes), and its pods replace before's (pods of before's names that after lacks
// leave, as a scale-down). Both phases run for 30 minutes on the clock. PodDisruptionBudgets
// in the manifests are not read.
func loadDisruptionDirs(dir string) ([]disruptionCase, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("SCENARIOS=%s is not a directory", dir)
	}
	var roots []string
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if st, err := os.Stat(filepath.Join(path, "before")); err == nil && st.IsDir() {
			roots = append(roots, path)
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(roots)
	var out []disruptionCase
	var errs []error
	for _, r := range roots {
		c, err := loadDisruptionDir(dir, r)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	if len(roots) == 0 {
		errs = append(errs, fmt.Errorf("%s: no case directory (a directory with a before/ subdirectory of manifests)", dir))
	}
	return out, errors.Join(errs...)
}

func loadDisruptionDir(root, dir string) (disruptionCase, error) {
	name, _ := filepath.Rel(root, dir)
	if name == "." {
		name = filepath.Base(dir)
	}
	// The case's scenario.yaml is at its root, where simulate reads it, for both sides.
	cfgPath := filepath.Join(dir, "scenario.yaml")
	cfg, err := readScenarioConfig(cfgPath, false)
	if err != nil {
		return disruptionCase{}, err
	}
	before, err := loadScenarioFiles(dir, filepath.Join(dir, "before"), cfg, cfgPath)
	if err != nil {
		return disruptionCase{}, err
	}
	for _, np := range before.pools {
		defaultDisruption(np)
	}
	c := disruptionCase{name: name, kind: "settle", sc: before, horizon: 30 * time.Minute}
	afterDir := filepath.Join(dir, "after")
	if _, err := os.Stat(afterDir); errors.Is(err, os.ErrNotExist) {
		return c, nil
	}
	after, err := loadScenarioFiles(dir, afterDir, cfg, cfgPath)
	if err != nil {
		return disruptionCase{}, err
	}
	c.kind = "dir-change"
	for _, np := range after.pools {
		defaultDisruption(np)
		if _, ok := before.its[np.Name]; !ok {
			return disruptionCase{}, fmt.Errorf("%s: NodePool %s is not in before/: a case changes pools, it does not add them", afterDir, np.Name)
		}
	}
	c.afterPools = after.pools
	c.afterPods = after.pods
	if equality.Semantic.DeepEqual(before.pods, after.pods) {
		c.afterPods = nil
	}
	return c, nil
}

// defaultDisruption fills the disruption block as the API server's defaults do
// (WhenEmptyOrUnderutilized, consolidateAfter 0s, budgets of 10%), for the emulation, which
// takes the objects as given.
func defaultDisruption(np *karpv1.NodePool) {
	d := &np.Spec.Disruption
	if d.ConsolidationPolicy == "" {
		d.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmptyOrUnderutilized
	}
	if d.ConsolidateAfter.Duration == nil && d.ConsolidateAfter.Raw == nil {
		d.ConsolidateAfter = karpv1.MustParseNillableDuration("0s")
	}
	if len(d.Budgets) == 0 {
		d.Budgets = []karpv1.Budget{{Nodes: "10%"}}
	}
	if np.Spec.Template.Spec.ExpireAfter.Duration == nil && np.Spec.Template.Spec.ExpireAfter.Raw == nil {
		np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("720h")
	}
}
