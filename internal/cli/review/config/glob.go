package config

import (
	"fmt"
	"path"
	"strings"
)

// glob is a path pattern of the config file: slash-separated, relative to the config file's
// directory, path.Match syntax per segment, and ** for any number of segments. A pattern
// also matches everything below a directory it matches, so `clusters/prod` and
// `clusters/prod/**` mean the same.
type glob []string

func compileGlob(pattern string) (glob, error) {
	p := strings.Trim(path.Clean(strings.TrimPrefix(pattern, "./")), "/")
	if p == "" || p == "." {
		return nil, fmt.Errorf("empty path pattern %q", pattern)
	}
	if strings.HasPrefix(p, "../") || p == ".." {
		return nil, fmt.Errorf("path pattern %q leaves the config file's directory", pattern)
	}
	segs := strings.Split(p, "/")
	for _, s := range segs {
		if _, err := path.Match(s, ""); err != nil {
			return nil, fmt.Errorf("path pattern %q: %w", pattern, err)
		}
	}
	return segs, nil
}

// match reports whether rel (slash-separated, relative to the config directory) or one of
// its parent directories matches.
func (g glob) match(rel string) bool {
	segs := strings.Split(rel, "/")
	for n := len(segs); n > 0; n-- {
		if matchSegs(g, segs[:n]) {
			return true
		}
	}
	return false
}

func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}
