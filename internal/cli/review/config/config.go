package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/analysis"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// ConfigFileNames are the names the review looks for, upward from its inputs.
var ConfigFileNames = []string{".karpenter-review.yaml", ".karpenter-review.yml"}

// Config is the repository's .karpenter-review.yaml: which files belong to which cluster,
// and per cluster its region, suppressed codes and node classes created elsewhere. Paths are
// relative to the file's directory.
type Config struct {
	// Region is the default for clusters that name none.
	Region              string   `yaml:"region"`
	Suppress            []string `yaml:"suppress"`
	ExternalNodeClasses []string `yaml:"externalNodeClasses"`
	// SelfHosted says the clusters run self-hosted Karpenter, which creates no node class of
	// its own; by default they run AKS Node Auto Provisioning, which creates `default`.
	SelfHosted bool            `yaml:"selfHosted"`
	Exclude    []string        `yaml:"exclude"`
	Clusters   []ClusterConfig `yaml:"clusters"`
	// KarpenterVersion and FeatureGates describe the Karpenter the clusters run (target.go).
	KarpenterVersion string `yaml:"karpenterVersion"`
	FeatureGates     string `yaml:"featureGates"`
	// Groups are clusters meant to be identical, compared with each other (fleet_config.go).
	Groups []GroupConfig `yaml:"groups"`

	Path, Dir     string `json:"-" yaml:"-"`
	target        analysis.Target
	exclude       []glob
	SuppressCodes []findings.Code `json:"-" yaml:"-"`
}

// ClusterConfig maps the files matching Paths to one cluster.
type ClusterConfig struct {
	Name                string   `yaml:"name"`
	Region              string   `yaml:"region"`
	Paths               []string `yaml:"paths"`
	Suppress            []string `yaml:"suppress"`
	ExternalNodeClasses []string `yaml:"externalNodeClasses"`
	// SelfHosted overrides the top-level selfHosted for this cluster.
	SelfHosted       *bool  `yaml:"selfHosted"`
	KarpenterVersion string `yaml:"karpenterVersion"`
	FeatureGates     string `yaml:"featureGates"`

	target        *analysis.Target
	globs         []glob
	SuppressCodes []findings.Code `json:"-" yaml:"-"`
}

// FindConfig looks for a config file in dir and its parents, stopping after the directory
// that holds .git (the repository root). It returns "" when there is none.
func FindConfig(dir string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		for _, n := range ConfigFileNames {
			p := filepath.Join(dir, n)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p
			}
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return ""
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// LoadConfig reads and checks a config file. Any mistake in it is an error: a review that
// silently used the wrong region or cluster would be worse than none.
func LoadConfig(path string) (*Config, error) {
	data, err := readConfigFile(path)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if err := unknownKeys(path, data); err != nil {
		return nil, err
	}
	cfg := &Config{Path: path, Dir: filepath.Dir(abs)}
	dec := yamlv3.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, decodeError(path, err)
	}
	if err := cfg.compile(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := cfg.compileGroups(data); err != nil {
		return nil, err
	}
	return cfg, nil
}

// decodeError is one error per problem yaml.v3 found (a TypeError lists them in one message,
// a line each), each with the file's path.
func decodeError(path string, err error) error {
	var te *yamlv3.TypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("%s: %w", path, err)
	}
	errs := make([]error, len(te.Errors))
	for i, e := range te.Errors {
		errs[i] = fmt.Errorf("%s: %s", path, e)
	}
	return errors.Join(errs...)
}

// maxConfigBytes bounds the config file, which a pull request can replace like any file.
const maxConfigBytes = 1 << 20

// readConfigFile reads a regular file of at most maxConfigBytes: never a FIFO or device.
func readConfigFile(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is %s, not a regular file", path, FileKind(st.Mode()))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err == nil && len(data) > maxConfigBytes {
		err = fmt.Errorf("%s has more than %d bytes; a config file is a few lines", path, maxConfigBytes)
	}
	return data, err
}

func (c *Config) compile() error {
	var err error
	if c.SuppressCodes, err = findings.ParseCodes(strings.Join(c.Suppress, ",")); err != nil {
		return fmt.Errorf("suppress: %w", err)
	}
	if c.Region, err = NormalizeRegion(c.Region); err != nil {
		return fmt.Errorf("region: %w", err)
	}
	if err := c.compileTargets(); err != nil {
		return err
	}
	for _, p := range c.Exclude {
		g, err := compileGlob(p)
		if err != nil {
			return fmt.Errorf("exclude: %w", err)
		}
		c.exclude = append(c.exclude, g)
	}
	seen := map[string]bool{}
	for i := range c.Clusters {
		cl := &c.Clusters[i]
		switch {
		case cl.Name == "":
			return fmt.Errorf("clusters[%d]: name is required", i)
		case seen[cl.Name]:
			return fmt.Errorf("clusters[%d]: cluster %q is defined twice", i, cl.Name)
		case len(cl.Paths) == 0:
			return fmt.Errorf("cluster %s: paths is required (globs of the files that belong to it)", cl.Name)
		}
		seen[cl.Name] = true
		if cl.Region, err = NormalizeRegion(cl.Region); err != nil {
			return fmt.Errorf("cluster %s: region: %w", cl.Name, err)
		}
		for _, p := range cl.Paths {
			g, err := compileGlob(p)
			if err != nil {
				return fmt.Errorf("cluster %s: paths: %w", cl.Name, err)
			}
			cl.globs = append(cl.globs, g)
		}
		if cl.SuppressCodes, err = findings.ParseCodes(strings.Join(cl.Suppress, ",")); err != nil {
			return fmt.Errorf("cluster %s: suppress: %w", cl.Name, err)
		}
	}
	return nil
}

// rel is abs relative to the config directory, slash-separated; ok is false outside it.
func (c *Config) rel(abs string) (string, bool) {
	r, err := filepath.Rel(c.Dir, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Excluded reports whether a file is excluded from the review.
func (c *Config) Excluded(abs string) bool {
	if c == nil {
		return false
	}
	r, ok := c.rel(abs)
	if !ok {
		return false
	}
	for _, g := range c.exclude {
		if g.match(r) {
			return true
		}
	}
	return false
}

// ClustersOf names the clusters whose paths match a file.
func (c *Config) ClustersOf(abs string) []string {
	if c == nil || abs == "" {
		return nil
	}
	r, ok := c.rel(abs)
	if !ok {
		return nil
	}
	var out []string
	for _, cl := range c.Clusters {
		for _, g := range cl.globs {
			if g.match(r) {
				out = append(out, cl.Name)
				break
			}
		}
	}
	return out
}

func (c *Config) Cluster(name string) *ClusterConfig {
	if c == nil {
		return nil
	}
	for i := range c.Clusters {
		if c.Clusters[i].Name == name {
			return &c.Clusters[i]
		}
	}
	return nil
}

// IsSelfHosted reports whether cluster name runs self-hosted Karpenter (no node class is
// created for it) rather than AKS Node Auto Provisioning.
func (c *Config) IsSelfHosted(name string) bool {
	if c == nil {
		return false
	}
	if cl := c.Cluster(name); cl != nil && cl.SelfHosted != nil {
		return *cl.SelfHosted
	}
	return c.SelfHosted
}

func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
