package review

import (
	"os"
	"path/filepath"
	"strings"
)

// underBaseline maps paths of this checkout to the baseline's: relative paths, and absolute
// ones below the working directory, are read below the baseline; others as they are.
func underBaseline(baseline string, paths []string) []string {
	wd, _ := os.Getwd()
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		rel := p
		if filepath.IsAbs(p) {
			r, err := filepath.Rel(wd, p)
			if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				out = append(out, p)
				continue
			}
			rel = r
		}
		out = append(out, filepath.Join(baseline, rel))
	}
	return out
}
