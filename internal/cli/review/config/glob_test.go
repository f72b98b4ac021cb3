package config

import "testing"

func TestGlob(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"clusters/prod", "clusters/prod/pools.yaml", true},
		{"clusters/prod", "clusters/prod-2/pools.yaml", false},
		{"clusters/prod/**", "clusters/prod/a/b/pools.yaml", true},
		{"clusters/*/pools.yaml", "clusters/dev/pools.yaml", true},
		{"clusters/*/pools.yaml", "clusters/dev/x/pools.yaml", false},
		{"**/gpu-*.yaml", "clusters/dev/gpu-a.yaml", true},
		{"**/gpu-*.yaml", "gpu-a.yaml", true},
		{"./base/", "base/general.yaml", true},
		{"base", "basement/general.yaml", false},
	} {
		g, err := compileGlob(tc.pattern)
		if err != nil {
			t.Fatalf("%s: %v", tc.pattern, err)
		}
		if got := g.match(tc.path); got != tc.want {
			t.Errorf("%q matches %q = %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
	for _, bad := range []string{"", ".", "../other", "clusters/[", "/"} {
		if _, err := compileGlob(bad); err == nil {
			t.Errorf("pattern %q accepted", bad)
		}
	}
}
