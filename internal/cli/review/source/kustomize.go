package source

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// kustomization is what the review follows of a kustomization file itself: the local
// resources it includes and the patches it applies, to know which files belong to which
// cluster and where a patched value was written. What the objects are is what kustomize
// builds (assemble/kustomize_build.go); a tree kustomize cannot build (a remote resource) keeps this
// reading, which applies strategic-merge patches only, and says so in the skipped list.
type kustomization struct {
	file string
	// Resources are local files and directories (absolute), in order.
	Resources []string
	// ResourceLines are the lines of the resources' entries.
	ResourceLines []int
	Patches       []PatchRef
	// Skipped explains each entry the review does not follow.
	Skipped []Skip
}

// PatchRef is one strategic-merge patch: a file, or a patch written inline.
type PatchRef struct {
	Path   string // absolute; "" when inline
	Inline string
	// Kind and name select the target when the patch says (target:), else the patch's own.
	Kind, Name string
	Line       int // of the entry in the kustomization
}

func isKustomizationFile(name string) bool {
	switch name {
	case "kustomization.yaml", "kustomization.yml", "Kustomization":
		return true
	}
	return false
}

// AsKustomization reads a kustomization: a file with a kustomization's name, or a document
// of kind Kustomization or Component.
func AsKustomization(abs string, docs []YAMLDoc) (*kustomization, bool) {
	if len(docs) == 0 {
		return nil, false
	}
	m, _ := docs[0].Value.(map[string]any)
	kind, _ := m["kind"].(string)
	apiVersion, _ := m["apiVersion"].(string)
	if !isKustomizationFile(filepath.Base(abs)) && !(strings.HasPrefix(apiVersion, "kustomize.config.k8s.io/") && (kind == "Kustomization" || kind == "Component")) {
		return nil, false
	}
	dir := filepath.Dir(abs)
	k := &kustomization{file: abs}
	line := func(at ...string) int {
		if p, ok := docs[0].Fields.Lookup(at); ok {
			return p.Line
		}
		return docs[0].Line
	}
	for _, key := range []string{"resources", "bases", "components"} {
		list, _ := m[key].([]any)
		for i, e := range list {
			s, _ := e.(string)
			switch {
			case s == "":
			case strings.Contains(s, "://") || strings.HasPrefix(s, "github.com/") || strings.HasPrefix(s, "git@"):
				k.Skipped = append(k.Skipped, Skip{Kind: SkipRemoteResource, Reason: "remote resource " + s + " is not fetched"})
			default:
				k.Resources = append(k.Resources, filepath.Join(dir, s))
				k.ResourceLines = append(k.ResourceLines, line(key, strconv.Itoa(i)))
			}
		}
	}
	patches, _ := m["patches"].([]any)
	for i, e := range patches {
		pm, _ := e.(map[string]any)
		ref := PatchRef{Line: line("patches", strconv.Itoa(i))}
		if p, _ := pm["path"].(string); p != "" {
			ref.Path = filepath.Join(dir, p)
		}
		ref.Inline, _ = pm["patch"].(string)
		if t, ok := pm["target"].(map[string]any); ok {
			ref.Kind, _ = t["kind"].(string)
			ref.Name, _ = t["name"].(string)
		}
		k.Patches = append(k.Patches, ref)
	}
	psm, _ := m["patchesStrategicMerge"].([]any)
	for i, e := range psm {
		s, _ := e.(string)
		ref := PatchRef{Line: line("patchesStrategicMerge", strconv.Itoa(i))}
		if strings.Contains(s, "\n") || strings.Contains(s, ":") {
			ref.Inline = s
		} else {
			ref.Path = filepath.Join(dir, s)
		}
		k.Patches = append(k.Patches, ref)
	}
	j, _ := m["patchesJson6902"].([]any)
	if len(j) > 0 {
		k.Skipped = append(k.Skipped, Skip{Kind: SkipJSON6902, Reason: "patchesJson6902 are not applied"})
	}
	for i, e := range j {
		// Read so that the file is part of the tree kustomize builds (assemble/kustomize_build.go),
		// which applies them and points at their operations.
		pm, _ := e.(map[string]any)
		if p, _ := pm["path"].(string); p != "" {
			ref := PatchRef{Path: filepath.Join(dir, p), Line: line("patchesJson6902", strconv.Itoa(i))}
			if t, ok := pm["target"].(map[string]any); ok {
				ref.Kind, _ = t["kind"].(string)
				ref.Name, _ = t["name"].(string)
			}
			k.Patches = append(k.Patches, ref)
		}
	}
	return k, true
}

// KustomizationIn finds the kustomization file of a directory resource.
func KustomizationIn(dir string) (string, bool) {
	for _, n := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		p := filepath.Join(dir, n)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, true
		}
	}
	return "", false
}
