package kustomize

import (
	"errors"
	"fmt"
	"path/filepath"

	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// Reader reads the files of a build within the caller's bounds.
type Reader interface {
	// ReadFile reads a regular file (absolute path), or says why it may not.
	ReadFile(abs string) ([]byte, error)
	// Allowed says why a path may not be looked at (outside the reviewed tree), or nil.
	Allowed(abs string) error
}

var errReadOnly = errors.New("the review's file system is read-only")

// fsys is the file system kustomize builds on: the disk, read through the caller's Reader,
// looked at only where the caller allows, never written. The top kustomization is read with
// buildMetadata [originAnnotations, transformerAnnotations] added, so that every resource
// says which file it came from and which kustomizations changed it.
type fsys struct {
	disk filesys.FileSystem
	r    Reader
	top  string // the top kustomization file
}

var _ filesys.FileSystem = (*fsys)(nil)

func (f *fsys) abs(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return a
}

func (f *fsys) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (f *fsys) Mkdir(string) error                  { return errReadOnly }
func (f *fsys) MkdirAll(string) error               { return errReadOnly }
func (f *fsys) RemoveAll(string) error              { return errReadOnly }
func (f *fsys) WriteFile(string, []byte) error      { return errReadOnly }

func (f *fsys) Open(p string) (filesys.File, error) {
	return nil, fmt.Errorf("%s: opening files is not supported by the review's file system", p)
}

func (f *fsys) IsDir(p string) bool {
	return f.r.Allowed(f.abs(p)) == nil && f.disk.IsDir(p)
}

func (f *fsys) Exists(p string) bool {
	return f.r.Allowed(f.abs(p)) == nil && f.disk.Exists(p)
}

func (f *fsys) ReadDir(p string) ([]string, error) {
	if err := f.r.Allowed(f.abs(p)); err != nil {
		return nil, err
	}
	return f.disk.ReadDir(p)
}

func (f *fsys) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	if err := f.r.Allowed(f.abs(p)); err != nil {
		return "", "", err
	}
	return f.disk.CleanedAbs(p)
}

func (f *fsys) Glob(pattern string) ([]string, error) {
	all, err := f.disk.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range all {
		if f.r.Allowed(f.abs(p)) == nil {
			out = append(out, p)
		}
	}
	return out, nil
}

func (f *fsys) Walk(p string, fn filepath.WalkFunc) error {
	if err := f.r.Allowed(f.abs(p)); err != nil {
		return err
	}
	return f.disk.Walk(p, fn)
}

func (f *fsys) ReadFile(p string) ([]byte, error) {
	a := f.abs(p)
	data, err := f.r.ReadFile(a)
	if err != nil || a != f.top {
		return data, err
	}
	return withBuildMetadata(data)
}

// withBuildMetadata adds the build metadata the review needs to a kustomization.
func withBuildMetadata(data []byte) ([]byte, error) {
	m := map[string]any{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return data, nil // kustomize reports it
	}
	have, _ := m["buildMetadata"].([]any)
	for _, want := range []string{"originAnnotations", "transformerAnnotations"} {
		found := false
		for _, h := range have {
			found = found || h == want
		}
		if !found {
			have = append(have, want)
		}
	}
	m["buildMetadata"] = have
	return yaml.Marshal(m)
}
