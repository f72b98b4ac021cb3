package assemble

import (
	"fmt"
	"os"
	"slices"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// Skipped is an input, or a part of one, that the review did not follow, and why.
type Skipped struct {
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
	// Kind is why, for the stages that withdraw a skip once they follow the part after all.
	Kind source.SkipKind `json:"-"`
	// patch is the target of an unmatched patch (source.SkipUnmatchedPatch).
	patch patchTarget
}

// patchTarget is what a strategic-merge patch selects, in which cluster.
type patchTarget struct{ kind, name, cluster string }

// patchDoc is one patch document to apply within a cluster.
type patchDoc struct {
	file       string // display path of the patch (or of the kustomization, when inline)
	line       int
	kind, name string
	value      map[string]any
	fields     source.Positions
}

// membership records which files belong to which cluster and the patches each cluster
// applies, in the order Kustomize applies them (a base's before its overlay's).
type membership struct {
	l        *source.Loader
	Clusters []string // in order of first appearance
	files    map[string]map[*source.File]bool
	patches  map[string][]patchDoc
	patchKey map[string]map[string]bool
	isPatch  map[*source.File]bool
	Skipped  []Skipped
	// provider keeps, per cluster split from a plan with several karpenter provider
	// configurations, the configuration key whose objects the plan file contributes;
	// parent is the cluster it was split from (whose settings in the config it keeps).
	provider map[string]map[*source.File]string
	parent   map[string]string
	// kustomize: what `kustomize build` needs per cluster (kustomize_build.go).
	kustomize kustomizeTrees
}

func NewMembership(l *source.Loader) *membership {
	return &membership{l: l, files: map[string]map[*source.File]bool{}, patches: map[string][]patchDoc{},
		patchKey: map[string]map[string]bool{}, isPatch: map[*source.File]bool{},
		provider: map[string]map[*source.File]string{}, parent: map[string]string{}, kustomize: newKustomizeTrees()}
}

func (m *membership) add(cluster string, f *source.File) {
	if m.files[cluster] == nil {
		m.files[cluster] = map[*source.File]bool{}
		m.Clusters = append(m.Clusters, cluster)
	}
	m.files[cluster][f] = true
}

func (m *membership) member(f *source.File) bool {
	for _, fs := range m.files {
		if fs[f] {
			return true
		}
	}
	return false
}

// Assign maps the files named on the command line to clusters: by the config's paths, then
// through the kustomizations among them (a base belongs to each cluster whose overlay
// includes it); a file that belongs nowhere else belongs to the default cluster "".
func (m *membership) Assign(inputs []*source.File) error {
	for _, f := range inputs {
		for _, c := range m.l.Config.ClustersOf(f.Abs) {
			m.add(c, f)
		}
	}
	for _, f := range inputs {
		if cs := m.l.Config.ClustersOf(f.Abs); f.Kust != nil && len(cs) > 0 {
			if err := m.expand(f, cs, map[*source.File]bool{}); err != nil {
				return err
			}
		}
	}
	for _, f := range inputs {
		if m.member(f) {
			continue
		}
		m.add("", f)
		if f.Kust != nil {
			if err := m.expand(f, []string{""}, map[*source.File]bool{}); err != nil {
				return err
			}
		}
	}
	m.splitByProvider()
	return nil
}

// splitByProvider turns a cluster that holds a plan with several karpenter provider
// configurations (aliases, one per cluster) into one cluster per configuration, named
// after its key ("karpenter.east", or "prod/karpenter.east" within cluster prod). The
// cluster's other files go with the default configuration's cluster (else the first).
func (m *membership) splitByProvider() {
	var clusters []string
	for _, c := range m.Clusters {
		var keys []string
		for _, f := range m.l.Order {
			if m.files[c][f] {
				for _, k := range f.Providers() {
					if !slices.Contains(keys, k) {
						keys = append(keys, k)
					}
				}
			}
		}
		if len(keys) < 2 {
			clusters = append(clusters, c)
			continue
		}
		home := keys[0]
		if slices.Contains(keys, source.DefaultProvider) {
			home = source.DefaultProvider
		}
		for _, k := range keys {
			name := k
			if c != "" {
				name = c + "/" + k
			}
			clusters = append(clusters, name)
			m.parent[name] = c
			m.files[name] = map[*source.File]bool{}
			m.provider[name] = map[*source.File]string{}
			m.patches[name] = m.patches[c]
			for f := range m.files[c] {
				if len(f.Providers()) > 0 {
					m.files[name][f] = true
					m.provider[name][f] = k
				} else if k == home {
					m.files[name][f] = true
				}
			}
		}
		delete(m.files, c)
		delete(m.patches, c)
	}
	m.Clusters = clusters
}

// ConfigName is the cluster whose settings in the config file apply to cluster name.
func (m *membership) ConfigName(name string) string {
	if p, ok := m.parent[name]; ok {
		return p
	}
	return name
}

// expand adds what a kustomization includes to its clusters and records its patches.
func (m *membership) expand(kf *source.File, clusters []string, stack map[*source.File]bool) error {
	if stack[kf] {
		return nil // a cycle; Kustomize reports it, the review has seen everything once
	}
	stack[kf] = true
	defer delete(stack, kf)
	k := kf.Kust
	for _, s := range k.Skipped {
		m.skip(kf.Path, 0, s.Kind, s.Reason)
	}
	m.kustomize.visit(kf)
	for i, r := range k.Resources {
		if nr := m.l.Confined(r); nr != nil {
			// Said before looking at r, so the review discloses nothing about files outside.
			f := nr.Finding(kf.Path)
			f.Line = k.ResourceLines[i]
			if !slices.ContainsFunc(kf.Findings, func(g source.Finding) bool { return g.Code == f.Code && g.Line == f.Line }) {
				kf.Findings = append(kf.Findings, f)
			}
			continue
		}
		st, err := os.Stat(r)
		if err != nil {
			m.skip(kf.Path, 0, source.SkipNotFollowed, fmt.Sprintf("resource %s cannot be read: %v", m.l.Display(r), err))
			continue
		}
		path := r
		if st.IsDir() {
			kp, ok := source.KustomizationIn(r)
			if !ok {
				m.skip(kf.Path, 0, source.SkipNotFollowed, fmt.Sprintf("resource directory %s has no kustomization", m.l.Display(r)))
				continue
			}
			path = kp
		}
		f, err := m.l.Load(path)
		if err != nil {
			return err
		}
		for _, c := range clusters {
			m.add(c, f)
		}
		m.kustomize.include(kf, f, clusters)
		if f.Kust != nil {
			if err := m.expand(f, clusters, stack); err != nil {
				return err
			}
		}
	}
	for _, ref := range k.Patches {
		docs, file, err := m.patchDocs(kf, ref)
		if err != nil {
			return err
		}
		if ref.Path != "" {
			if pf, ok := m.l.Files[ref.Path]; ok {
				m.kustomize.include(kf, pf, nil)
			}
		}
		for i, d := range docs {
			pm, ok := d.Value.(map[string]any)
			if !ok {
				m.skip(file, d.Line, source.SkipJSON6902, "JSON 6902 patches are not applied")
				continue
			}
			pd := patchDoc{file: file, line: d.Line, kind: ref.Kind, name: ref.Name, value: pm, fields: d.Fields}
			if pd.kind == "" {
				pd.kind, _ = pm["kind"].(string)
			}
			if pd.name == "" {
				meta, _ := pm["metadata"].(map[string]any)
				pd.name, _ = meta["name"].(string)
			}
			key := fmt.Sprintf("%s#%d#%d", file, ref.Line, i)
			for _, c := range clusters {
				if m.patchKey[c] == nil {
					m.patchKey[c] = map[string]bool{}
				}
				if !m.patchKey[c][key] {
					m.patchKey[c][key] = true
					m.patches[c] = append(m.patches[c], pd)
				}
			}
		}
	}
	return nil
}

// patchDocs reads the documents of a patch. Inline patches point at their kustomization.
func (m *membership) patchDocs(kf *source.File, ref source.PatchRef) ([]source.YAMLDoc, string, error) {
	if ref.Path != "" {
		f, err := m.l.Load(ref.Path)
		if err != nil {
			return nil, "", err
		}
		m.isPatch[f] = true
		docs, _ := source.ParseYAMLStream(f.Path, f.Raw) // its problems were reported when it was loaded
		return docs, f.Path, nil
	}
	docs, probs := source.ParseYAMLStream(kf.Path, []byte(ref.Inline))
	kf.Findings = append(kf.Findings, probs...)
	for i := range docs {
		docs[i].Line = ref.Line
		for k := range docs[i].Fields {
			docs[i].Fields[k] = source.Pos{File: kf.Path, Line: ref.Line}
		}
	}
	return docs, kf.Path, nil
}

func (m *membership) skip(file string, line int, kind source.SkipKind, reason string) {
	m.addSkipped(Skipped{File: file, Line: line, Reason: reason, Kind: kind})
}

// skipUnmatched records that patch p matches no reviewed object of cluster.
func (m *membership) skipUnmatched(p patchDoc, cluster string) {
	m.addSkipped(Skipped{File: p.file, Line: p.line, Reason: unmatchedPatch(p.kind, p.name, cluster), Kind: source.SkipUnmatchedPatch,
		patch: patchTarget{p.kind, p.name, cluster}})
}

func (m *membership) addSkipped(s Skipped) {
	if !slices.Contains(m.Skipped, s) {
		m.Skipped = append(m.Skipped, s)
	}
}

// Build makes each cluster's objects: its files' objects, copied and patched, with duplicate
// names reported.
func (m *membership) Build(name string) (*Cluster, []source.Finding) {
	c := &Cluster{Name: name}
	var out []source.Finding
	var objs []*source.Object
	for _, f := range m.l.Order {
		if !m.files[name][f] || m.isPatch[f] {
			continue
		}
		key, split := m.provider[name][f]
		for _, o := range f.Objects {
			if !split || o.Provider == key {
				objs = append(objs, o.Clone())
			}
		}
	}
	objs = m.patchObjects(name, objs)
	objs, out = m.kustomizeBuild(name, objs)
	seen := map[string]*source.Object{}
	for _, o := range objs {
		if o == nil {
			continue
		}
		key := o.GVK.Kind + "/" + o.Name
		if first, dup := seen[key]; dup && (o.Converted || first.Converted) {
			// A v1beta1 copy of a pool the input also has in v1 (KRP002 says it is not served):
			// the cluster can only ever hold the v1 one, so that one is checked.
			if first.Converted && !o.Converted {
				seen[key] = o
				c.NodePools[slices.Index(c.NodePools, first)] = o
			}
			continue
		}
		if first, dup := seen[key]; dup && o.Name != "" && o.Name != source.UnknownName {
			f := o.Finding(findings.DuplicateObject, "metadata.name",
				fmt.Sprintf("%s is defined twice in %s", key, ClusterPhrase(name)),
				"Remove one of the two, rename one, or map their files to different clusters in .karpenter-review.yaml.")
			f.Related = []source.Location{first.At("metadata.name")}
			out = append(out, f)
			continue
		}
		seen[key] = o
		if o.GVK.GroupKind() == kinds.NodePool.GVK.GroupKind() {
			c.NodePools = append(c.NodePools, o)
		} else if o.GVK.GroupKind() == nodeOverlayKind {
			c.NodeOverlays = append(c.NodeOverlays, o)
		} else {
			c.NodeClasses = append(c.NodeClasses, o)
		}
	}
	return c, out
}

// patchObjects applies the cluster's strategic-merge patches, as the review reads them
// (source/mergepatch.go), keeping where each patched value was written.
func (m *membership) patchObjects(name string, objs []*source.Object) []*source.Object {
	for _, p := range m.patches[name] {
		matched := false
		for i, o := range objs {
			if o == nil || o.GVK.Kind != p.kind || o.Name != p.name {
				continue
			}
			matched = true
			if !source.ApplyPatch(o, p.value, p.fields) {
				objs[i] = nil
			}
		}
		if !matched {
			m.skipUnmatched(p, name)
		}
	}
	return objs
}

// unmatchedPatch is the skip reason of an overlay patch that matches no reviewed object; the
// workload reader withdraws the skip by its kind and target, not this text (workloads.go).
func unmatchedPatch(kind, name, cluster string) string {
	return fmt.Sprintf("patch of %s/%s matches no object of %s", kind, name, ClusterPhrase(cluster))
}
