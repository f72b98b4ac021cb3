package helmchart

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"
)

// IsChart reports whether dir holds a chart (a Chart.yaml).
func IsChart(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && st.Mode().IsRegular()
}

// ReadFunc reads one file of the chart (an absolute path) within the caller's bounds; it
// returns a non-nil refusal when the file may not be read.
type ReadFunc func(abs string) (data []byte, refused error, err error)

// Files are a chart's files, by their slash path in the chart directory.
type Files []*loader.BufferedFile

// Load collects a chart directory's files as Helm's directory loader does (.helmignore and its
// defaults honoured), but reading each through read and never following a symlink out of the
// walk (Helm's loader follows them). A file read refuses is a problem of the chart.
func Load(dir string, read ReadFunc) (Files, []error, error) {
	rules := ignore.Empty()
	if data, refused, err := read(filepath.Join(dir, ignore.HelmIgnore)); err == nil && refused == nil {
		r, perr := ignore.Parse(bytes.NewReader(data))
		if perr != nil {
			return nil, nil, fmt.Errorf("%s: %w", ignore.HelmIgnore, perr)
		}
		rules = r
	}
	rules.AddDefaults()
	var files Files
	var refusals []error
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		n := filepath.ToSlash(rel)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if rules.Ignore(n, fi) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		data, refused, err := read(p)
		if err != nil {
			return err
		}
		if refused != nil {
			refusals = append(refusals, refused)
			return nil
		}
		files = append(files, &loader.BufferedFile{Name: n, Data: bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))})
		return nil
	})
	return files, refusals, err
}

// templatePath turns a template name as Helm reports it (mychart/templates/pool.yaml, or
// mychart/charts/sub/templates/x.yaml) into the file below the chart directory.
func templatePath(dir, name string) string {
	if i := strings.IndexByte(name, '/'); i >= 0 {
		return filepath.Join(dir, filepath.FromSlash(name[i+1:]))
	}
	return filepath.Join(dir, filepath.FromSlash(name))
}
