package assemble

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/source"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/manifest/kustomize"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/workload"
)

// The review builds each cluster's top kustomizations with kustomize itself
// (internal/manifest/kustomize: krusty, full kustomize build semantics), so that what it
// checks is what Flux, Argo CD and kubectl apply -k would apply: components, generators,
// JSON 6902 patches, replacements and name transformers included. Its own reading of the
// kustomizations (source/kustomize.go, source/mergepatch.go) still says where each value was written: a
// built object keeps the positions of the document it came from and of the strategic-merge
// patches applied to it, and a value that kustomize set otherwise points at the JSON 6902
// operation, or else at the kustomization, that set it. A tree with a remote resource is not
// built (nothing is fetched); a build that fails is a finding on the kustomization.

// kustomizeTrees records which kustomizations include which files, per cluster.
type kustomizeTrees struct {
	// includedIn are the kustomizations another kustomization of the cluster includes.
	includedIn map[string]map[*source.File]bool
	// tree are the files a kustomization includes, directly or through its bases.
	tree map[*source.File]map[*source.File]bool
	// remote are the kustomizations with a remote resource somewhere in their tree.
	remote map[*source.File]bool
	// built are the builds of each cluster's top kustomizations that succeeded.
	built map[string][]built
}

// built is what kustomize built from a top kustomization, and the files it read.
type built struct {
	kf   *source.File
	tree map[*source.File]bool
	res  []kustomize.Resource
}

func newKustomizeTrees() kustomizeTrees {
	return kustomizeTrees{includedIn: map[string]map[*source.File]bool{}, tree: map[*source.File]map[*source.File]bool{}, remote: map[*source.File]bool{},
		built: map[string][]built{}}
}

func (t kustomizeTrees) visit(kf *source.File) {
	if t.tree[kf] == nil {
		t.tree[kf] = map[*source.File]bool{kf: true}
	}
	for _, s := range kf.Kust.Skipped {
		if s.Kind == source.SkipRemoteResource {
			t.remote[kf] = true
		}
	}
}

// include records that kustomization kf includes f (a resource or a patch file) in clusters.
func (t kustomizeTrees) include(kf, f *source.File, clusters []string) {
	t.visit(kf)
	t.tree[kf][f] = true
	if f.Kust == nil {
		return
	}
	for _, c := range clusters {
		if t.includedIn[c] == nil {
			t.includedIn[c] = map[*source.File]bool{}
		}
		t.includedIn[c][f] = true
	}
}

// files are all the files below kf, through its bases and components.
func (t kustomizeTrees) files(kf *source.File) map[*source.File]bool {
	out := map[*source.File]bool{}
	var walk func(*source.File)
	walk = func(k *source.File) {
		for f := range t.tree[k] {
			if out[f] {
				continue
			}
			out[f] = true
			if f.Kust != nil && f != k {
				if t.remote[f] {
					t.remote[kf] = true
				}
				walk(f)
			}
		}
	}
	walk(kf)
	return out
}

// kustReader reads a build's files as the review reads files: within the tree and its limits,
// each file once.
type kustReader struct{ l *source.Loader }

func (r kustReader) ReadFile(abs string) ([]byte, error) {
	if f, ok := r.l.Files[abs]; ok && f.Raw != nil {
		return f.Raw, nil
	}
	data, nr, err := r.l.ReadFile(abs)
	if nr != nil {
		return nil, errors.New(nr.Msg)
	}
	return data, err
}

func (r kustReader) Allowed(abs string) error {
	if nr := r.l.Confined(abs); nr != nil {
		return errors.New(nr.Msg)
	}
	return nil
}

// kustomizeBuild replaces the objects of each top kustomization of the cluster by what
// kustomize builds from it.
func (m *membership) kustomizeBuild(name string, objs []*source.Object) ([]*source.Object, []source.Finding) {
	var out []source.Finding
	for _, kf := range m.l.Order {
		if kf.Kust == nil || !m.files[name][kf] || m.kustomize.includedIn[name][kf] {
			continue
		}
		tree := m.kustomize.files(kf)
		if m.kustomize.remote[kf] {
			m.skip(kf.Path, 0, source.SkipNotFollowed, "kustomize build was not run (a remote resource is not fetched): the review applied the strategic-merge patches itself")
			continue
		}
		res, err := kustomize.Build(kf.Abs, kustReader{m.l})
		if err != nil {
			f := source.FileFinding(findings.Unparseable, source.Location{File: kf.Path, Line: m.kustLine(kf, err.Error())},
				"kustomize build fails: "+err.Error()+"; kubectl apply -k and Argo CD (with kustomize's default options) would fail the same way. The review checked its own reading of the overlay (strategic-merge patches only)",
				"Fix the kustomization; run kustomize build on it to see the same error.")
			out = append(out, f)
			continue
		}
		m.kustomize.built[name] = append(m.kustomize.built[name], built{kf: kf, tree: tree, res: res})
		objs = m.replaceBuilt(kf, tree, res, objs)
		// What the review's own reading could not follow is now applied.
		m.Skipped = slices.DeleteFunc(m.Skipped, func(s Skipped) bool {
			f, ok := m.l.ByPath(s.File)
			return ok && tree[f] && s.Kind == source.SkipJSON6902
		})
	}
	return objs, out
}

// kustLine is the line of the kustomization entry an error names, else the first line.
func (m *membership) kustLine(kf *source.File, msg string) int {
	docs, _ := source.ParseYAMLStream(kf.Path, kf.Raw)
	if len(docs) == 0 {
		return 1
	}
	best := 0
	for k, p := range docs[0].Fields {
		segs := strings.Split(k, "\x00")
		if len(segs) < 2 {
			continue
		}
		if s, ok := valueAt(docs[0].Value, segs).(string); ok && s != "" && strings.Contains(msg, s) && (best == 0 || p.Line < best) {
			best = p.Line
		}
	}
	if best == 0 {
		return 1
	}
	return best
}

func valueAt(v any, segs []string) any {
	for _, s := range segs {
		switch x := v.(type) {
		case map[string]any:
			v = x[s]
		case []any:
			i, err := strconv.Atoi(s)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// replaceBuilt puts the built resources in place of the objects read from kf's tree: each
// built object takes the place (and positions) of the object it was built from.
func (m *membership) replaceBuilt(kf *source.File, tree map[*source.File]bool, res []kustomize.Resource, objs []*source.Object) []*source.Object {
	inTree := map[string]bool{}
	for f := range tree {
		inTree[f.Path] = true
	}
	used := map[*source.Object]bool{}
	var built []*source.Object
	for _, r := range res {
		apiVersion, _ := r.Body["apiVersion"].(string)
		kind, _ := r.Body["kind"].(string)
		if v := source.Classify(apiVersion, kind); !v.Review && v.Problem == "" {
			continue // not the review's: workloads are read from the files (workloads.go)
		}
		// Karpenter's kinds are cluster-scoped: the API server drops the namespace that a
		// kustomization's namespace: sets on them.
		if meta, ok := r.Body["metadata"].(map[string]any); ok {
			delete(meta, "namespace")
		}
		o := m.counterpart(r, objs, used)
		if o == nil {
			file := kf.Path
			if r.Origin != "" {
				file = m.l.Display(r.Origin)
			} else if r.ConfiguredIn != "" {
				file = m.l.Display(r.ConfiguredIn)
			}
			made, _ := source.ObjectsOf(file, source.YAMLDoc{Line: 1, Value: r.Body, Fields: source.Positions{}})
			built = append(built, made...)
			continue
		}
		used[o] = true
		if o.Converted {
			// A v1beta1 NodePool: checked as Karpenter's migration converts the document
			// (source/convert_v1beta1.go); kustomize passed its v1beta1 body through.
			continue
		}
		m.attribute(o, r)
		o.Body = r.Body
		o.Name, _ = o.Get("metadata", "name").(string)
	}
	var kept []*source.Object
	for _, o := range objs {
		if o == nil {
			kept = append(kept, o)
			continue
		}
		if inTree[o.Source.File] && !used[o] {
			continue // the build dropped it ($patch: delete) or it was never part of it
		}
		kept = append(kept, o)
	}
	return append(kept, built...)
}

// counterpart is the object read from the file a built resource came from: same kind, and the
// same name or the name a prefix or suffix made of it.
func (m *membership) counterpart(r kustomize.Resource, objs []*source.Object, used map[*source.Object]bool) *source.Object {
	if r.Origin == "" {
		return nil
	}
	file := m.l.Display(r.Origin)
	kind, _ := r.Body["kind"].(string)
	meta, _ := r.Body["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	var best *source.Object
	for _, o := range objs {
		if o == nil || used[o] || o.Source.File != file || o.GVK.Kind != kind {
			continue
		}
		if o.Name == name {
			return o
		}
		if best == nil && o.Name != "" && strings.Contains(name, o.Name) {
			best = o
		}
	}
	return best
}

// attribute points the fields whose built value differs from the review's reading at what
// set them: a JSON 6902 operation on the path, else the kustomization of the last
// replacement or patch applied.
func (m *membership) attribute(o *source.Object, r kustomize.Resource) {
	var changed [][]string
	diffPaths(o.Body, r.Body, nil, &changed)
	for _, p := range changed {
		if len(p) == 2 && p[0] == "metadata" && (p[1] == "name" || p[1] == "annotations" || p[1] == "labels") {
			continue // name prefixes and common labels: the base wrote the field
		}
		at, ok := m.setBy(r, p)
		o.Source.Fields.Drop(p)
		o.Source.Patched.Drop(p)
		if ok && valueAt(r.Body, p) != nil {
			o.Source.Fields[source.PosKey(p)] = at
		}
	}
}

// diffPaths lists the paths where b differs from a: the deepest maps' keys, whole lists and
// scalars.
func diffPaths(a, b any, at []string, out *[][]string) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		for k, bv := range bm {
			diffPaths(am[k], bv, append(append([]string(nil), at...), k), out)
		}
		for k := range am {
			if _, ok := bm[k]; !ok {
				*out = append(*out, append(append([]string(nil), at...), k))
			}
		}
		return
	}
	al, alok := a.([]any)
	bl, blok := b.([]any)
	if alok && blok && len(al) == len(bl) {
		for i := range bl {
			diffPaths(al[i], bl[i], append(append([]string(nil), at...), strconv.Itoa(i)), out)
		}
		return
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, at)
	}
}

// setBy finds what set a path in a build. kustomize's transformer annotations name every
// transformer of each kustomization the resource went through, whether it changed the
// resource or not, so the path decides: the last JSON 6902 operation on it (or on a parent or
// child) among those kustomizations' patches, else the last replacement whose target field is
// it, else the patches entry of the last kustomization that patched.
func (m *membership) setBy(r kustomize.Resource, p []string) (source.Pos, bool) {
	kusts := func(kind func(string) bool) []*source.File {
		var out []*source.File
		for i := len(r.Transformations) - 1; i >= 0; i-- {
			t := r.Transformations[i]
			if kf, ok := m.l.Files[t.Kustomization]; ok && kf.Kust != nil && kind(t.Kind) && !slices.Contains(out, kf) {
				out = append(out, kf)
			}
		}
		return out
	}
	patching := func(k string) bool { return strings.HasPrefix(k, "Patch") }
	for _, kf := range kusts(patching) {
		if at, ok := m.json6902Op(kf, p); ok {
			return at, true
		}
	}
	for _, kf := range kusts(func(k string) bool { return k == "ReplacementTransformer" }) {
		if at, ok := m.replacementTarget(kf, p); ok {
			return at, true
		}
	}
	for _, kf := range kusts(patching) {
		if at, ok := m.kustKey(kf, "patches"); ok {
			return at, true
		}
	}
	return source.Pos{}, false
}

// replacementTarget finds the fieldPaths entry of kf's replacements that is p (or a parent).
func (m *membership) replacementTarget(kf *source.File, p []string) (source.Pos, bool) {
	docs, _ := source.ParseYAMLStream(kf.Path, kf.Raw)
	if len(docs) == 0 {
		return source.Pos{}, false
	}
	reps, _ := valueAt(docs[0].Value, []string{"replacements"}).([]any)
	for i, rep := range reps {
		targets, _ := valueAt(rep, []string{"targets"}).([]any)
		for j, t := range targets {
			fps, _ := valueAt(t, []string{"fieldPaths"}).([]any)
			for k, fp := range fps {
				s, _ := fp.(string)
				if segs := strings.Split(s, "."); s != "" && (prefix(segs, p) || prefix(p, segs)) {
					if at, ok := docs[0].Fields[source.PosKey([]string{"replacements", strconv.Itoa(i), "targets", strconv.Itoa(j), "fieldPaths", strconv.Itoa(k)})]; ok {
						return at, true
					}
				}
			}
		}
	}
	return source.Pos{}, false
}

func (m *membership) kustKey(kf *source.File, key string) (source.Pos, bool) {
	docs, _ := source.ParseYAMLStream(kf.Path, kf.Raw)
	if len(docs) == 0 {
		return source.Pos{}, false
	}
	p, ok := docs[0].Fields[source.PosKey([]string{key})]
	return p, ok
}

// json6902Op finds the operation of kf's JSON 6902 patches (files or inline) whose path is p,
// a parent or a child of it.
func (m *membership) json6902Op(kf *source.File, p []string) (source.Pos, bool) {
	var found source.Pos
	ok := false
	for _, ref := range kf.Kust.Patches {
		var docs []source.YAMLDoc
		inline := ref.Path == ""
		if inline {
			docs, _ = source.ParseYAMLStream(kf.Path, []byte(ref.Inline))
		} else if f, loaded := m.l.Files[ref.Path]; loaded {
			docs, _ = source.ParseYAMLStream(f.Path, f.Raw)
		}
		for _, d := range docs {
			ops, isList := d.Value.([]any)
			if !isList {
				continue
			}
			for i, op := range ops {
				om, _ := op.(map[string]any)
				ptr, _ := om["path"].(string)
				segs := pointerSegments(ptr)
				if !prefix(segs, p) && !prefix(p, segs) {
					continue
				}
				if inline {
					found, ok = source.Pos{File: kf.Path, Line: ref.Line}, true
				} else if at, has := d.Fields[source.PosKey([]string{strconv.Itoa(i)})]; has {
					found, ok = at, true
				}
			}
		}
	}
	return found, ok
}

// pointerSegments splits a JSON pointer (RFC 6901).
func pointerSegments(ptr string) []string {
	if ptr == "" || ptr[0] != '/' {
		return nil
	}
	segs := strings.Split(ptr[1:], "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs
}

func prefix(a, b []string) bool {
	return len(a) > 0 && len(a) <= len(b) && slices.Equal(a, b[:len(a)])
}

// kustomizeWorkloads puts the workloads kustomize built in place of those read from the
// built trees' files, each where the document it came from was written.
func (m *membership) kustomizeWorkloads(name string, docs []workload.Document) []workload.Document {
	for _, b := range m.kustomize.built[name] {
		inTree := map[string]bool{}
		for f := range b.tree {
			inTree[f.Path] = true
		}
		var kept, from []workload.Document
		for _, d := range docs {
			if inTree[d.File] {
				from = append(from, d)
			} else {
				kept = append(kept, d)
			}
		}
		used := map[int]bool{}
		for _, r := range b.res {
			apiVersion, _ := r.Body["apiVersion"].(string)
			kind, _ := r.Body["kind"].(string)
			if v := source.Classify(apiVersion, kind); v.Review || v.Problem != "" {
				continue // the review's own objects (replaceBuilt)
			}
			d := workload.Document{File: b.kf.Path, Line: 1, Body: source.DeepCopy(r.Body).(map[string]any)}
			if r.Origin != "" {
				d.File = m.l.Display(r.Origin)
			} else if r.ConfiguredIn != "" {
				d.File = m.l.Display(r.ConfiguredIn)
			}
			meta, _ := r.Body["metadata"].(map[string]any)
			rname, _ := meta["name"].(string)
			best := -1
			for i, c := range from {
				cmeta, _ := c.Body["metadata"].(map[string]any)
				cname, _ := cmeta["name"].(string)
				if used[i] || c.File != d.File || c.Body["kind"] != kind {
					continue
				}
				if cname == rname {
					best = i
					break
				}
				if best < 0 && cname != "" && strings.Contains(rname, cname) {
					best = i
				}
			}
			if best >= 0 {
				used[best] = true
				d.Line, d.LineOf = from[best].Line, from[best].LineOf
			}
			kept = append(kept, d)
		}
		docs = kept
	}
	return docs
}
