package simulate

import (
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// scenarioPaths are the inputs split into the repository before a change and after it. A
// directory holding before/ (and optionally after/) is a scenario; other paths are read as
// they are, the same in both trees.
type scenarioPaths struct {
	Before []string
	// After is nil when no scenario has an after/ directory: there is no change to run.
	After []string
	// Region is scenario.yaml's region, when one gives it.
	Region string
}

// scenarioConfig is a scenario directory's scenario.yaml.
type scenarioConfig struct {
	Region string `json:"region"`
}

// scenarioOf splits the paths. An after/ without before/ is an error: the change would have
// nothing to start from.
func scenarioOf(paths []string) (scenarioPaths, error) {
	var sp scenarioPaths
	var after []string
	changed := false
	for _, p := range paths {
		before, hasBefore := isDir(filepath.Join(p, "before"))
		afterDir, hasAfter := isDir(filepath.Join(p, "after"))
		switch {
		case hasAfter && !hasBefore:
			return sp, fmt.Errorf("%s: after/ without before/: a scenario's after/ is the repository after a change to before/; add before/ (or pass after/ itself as a plain directory)", p)
		case !hasBefore:
			sp.Before, after = append(sp.Before, p), append(after, p)
			continue
		}
		region, err := scenarioRegion(p)
		if err != nil {
			return sp, err
		}
		if region != "" && sp.Region != "" && region != sp.Region {
			return sp, fmt.Errorf("%s: scenario.yaml's region %s differs from another scenario's %s: simulate them one at a time", p, region, sp.Region)
		}
		if region != "" {
			sp.Region = region
		}
		sp.Before = append(sp.Before, before)
		if hasAfter {
			after, changed = append(after, afterDir), true
		} else {
			after = append(after, before) // before/ alone: no change in this scenario
		}
	}
	if changed {
		sp.After = after
	}
	return sp, nil
}

// scenarioRegion is the region scenario.yaml gives ("" without one).
func scenarioRegion(dir string) (string, error) {
	path := filepath.Join(dir, "scenario.yaml")
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var cfg scenarioConfig
	if err := yaml.UnmarshalStrict(data, &cfg); err != nil {
		return "", fmt.Errorf("%s: %w (want region: <region>)", path, err)
	}
	return cfg.Region, nil
}

func isDir(path string) (string, bool) {
	info, err := os.Stat(path)
	return path, err == nil && info.IsDir()
}
