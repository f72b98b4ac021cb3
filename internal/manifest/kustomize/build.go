package kustomize

import (
	"fmt"
	"path/filepath"
	"sync"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest"
)

// Resource is one resource of a build.
type Resource struct {
	// Body is the resource as kustomize build prints it, without the build annotations.
	Body map[string]any
	// Origin is the file (absolute) the resource was read from; "" for a generated one.
	Origin string
	// ConfiguredIn is the kustomization (absolute) of the generator that made a generated
	// resource.
	ConfiguredIn string
	// Transformations are the transformers that were applied to it, in order.
	Transformations []Transformation
}

// Transformation is one transformer applied to a resource.
type Transformation struct {
	Kustomization string // absolute
	Kind          string // PatchTransformer, ReplacementTransformer, PrefixTransformer, ...
}

const (
	originAnnotation         = "config.kubernetes.io/origin"
	transformationAnnotation = "alpha.config.kubernetes.io/transformations"
)

type origin struct {
	Path         string `json:"path"`
	ConfiguredIn string `json:"configuredIn"`
	ConfiguredBy struct {
		Kind string `json:"kind"`
	} `json:"configuredBy"`
}

// buildMu serialises builds: krusty is not safe for concurrent use (kustomize issue 3659,
// concurrent map writes in its openapi schema cache).
var buildMu sync.Mutex

// Build runs kustomize build on the kustomization file kfile (its directory is the root). A
// panic inside kustomize on a malformed input is an error, not a crash of the review.
func Build(kfile string, r Reader) (res []Resource, err error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("kustomize failed on this input: %v", p)
		}
	}()
	return build(kfile, r)
}

func build(kfile string, r Reader) ([]Resource, error) {
	dir := filepath.Dir(kfile)
	opts := krusty.MakeDefaultOptions()
	// kustomize build's defaults: files only from within each kustomization's root (bases
	// are kustomizations of their own), no plugins; the Reader also confines every read.
	opts.LoadRestrictions = types.LoadRestrictionsRootOnly
	opts.PluginConfig = types.DisabledPluginConfig()
	k := krusty.MakeKustomizer(opts)
	fs := &fsys{disk: filesys.MakeFsOnDisk(), r: r, top: kfile}
	m, err := k.Run(fs, dir)
	if err != nil {
		return nil, err
	}
	var out []Resource
	for _, res := range m.Resources() {
		j, err := res.MarshalJSON()
		if err != nil {
			return nil, err
		}
		v, err := manifest.DecodeJSON(j)
		if err != nil {
			return nil, err
		}
		body, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("kustomize built a resource that is not an object")
		}
		out = append(out, takeAnnotations(dir, body))
	}
	return out, nil
}

// takeAnnotations reads and removes the build annotations.
func takeAnnotations(dir string, body map[string]any) Resource {
	res := Resource{Body: body}
	meta, _ := body["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	if s, ok := ann[originAnnotation].(string); ok {
		var o origin
		if yaml.Unmarshal([]byte(s), &o) == nil {
			if o.Path != "" {
				res.Origin = filepath.Join(dir, filepath.FromSlash(o.Path))
			} else if o.ConfiguredIn != "" {
				res.ConfiguredIn = filepath.Join(dir, filepath.FromSlash(o.ConfiguredIn))
			}
		}
	}
	if s, ok := ann[transformationAnnotation].(string); ok {
		var ts []origin
		if yaml.Unmarshal([]byte(s), &ts) == nil {
			for _, t := range ts {
				res.Transformations = append(res.Transformations, Transformation{Kustomization: filepath.Join(dir, filepath.FromSlash(t.ConfiguredIn)), Kind: t.ConfiguredBy.Kind})
			}
		}
	}
	delete(ann, originAnnotation)
	delete(ann, transformationAnnotation)
	if ann != nil && len(ann) == 0 {
		delete(meta, "annotations")
	}
	return res
}
