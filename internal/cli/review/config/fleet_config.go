package config

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"
)

// GroupConfig names clusters of the config that are meant to hold the same NodePools and node
// classes: the review compares them and reports what differs as notes (KRP320–KRP324,
// fleet/fleet_diff.go).
type GroupConfig struct {
	Name     string   `yaml:"name"`
	Clusters []string `yaml:"clusters"`
	// CompareRegional also compares what legitimately differs between regions (requirements on
	// zone and region labels) when the group's clusters are in different regions.
	CompareRegional bool `yaml:"compareRegional"`
}

// GroupOf is the group that names cluster name ("" for none).
func (c *Config) GroupOf(name string) string {
	if c == nil {
		return ""
	}
	for _, g := range c.Groups {
		if slices.Contains(g.Clusters, name) {
			return g.Name
		}
	}
	return ""
}

// compileGroups checks the groups against the clusters, reporting every mistake at once at
// its line in the file: a group that named a cluster wrongly would compare nothing and say
// nothing, which reads as "no drift".
func (c *Config) compileGroups(data []byte) error {
	if len(c.Groups) == 0 {
		return nil
	}
	lines := groupLines(data)
	at := func(i, j int) int {
		if i < len(lines) {
			if j < 0 {
				return lines[i].item
			}
			if j < len(lines[i].clusters) {
				return lines[i].clusters[j]
			}
			return lines[i].item
		}
		return 0
	}
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s:%d: %s", c.Path, line, fmt.Sprintf(format, args...)))
	}
	var defined []string
	for _, cl := range c.Clusters {
		defined = append(defined, cl.Name)
	}
	groupNames := map[string]bool{}
	memberOf := map[string]string{}
	for i, g := range c.Groups {
		switch {
		case g.Name == "":
			fail(at(i, -1), "groups[%d]: name is required", i)
		case groupNames[g.Name]:
			fail(at(i, -1), "groups[%d]: group %q is defined twice", i, g.Name)
		}
		groupNames[g.Name] = true
		label := fmt.Sprintf("groups[%d]", i)
		if g.Name != "" {
			label += " (" + g.Name + ")"
		}
		if len(g.Clusters) < 2 {
			fail(at(i, -1), "%s: clusters must name at least two clusters meant to be identical, got %d", label, len(g.Clusters))
		}
		seen := map[string]bool{}
		for j, name := range g.Clusters {
			switch {
			case !slices.Contains(defined, name):
				valid := "none are defined"
				if len(defined) > 0 {
					valid = "defined: " + strings.Join(defined, ", ")
				}
				fail(at(i, j), "%s: clusters[%d]: %q is not a cluster of this file (%s)", label, j, name, valid)
			case seen[name]:
				fail(at(i, j), "%s: clusters[%d]: %q is listed twice", label, j, name)
			case memberOf[name] != "" && memberOf[name] != g.Name:
				fail(at(i, j), "%s: clusters[%d]: %q is already in group %q; a cluster belongs to one group", label, j, name, memberOf[name])
			}
			seen[name] = true
			if memberOf[name] == "" {
				memberOf[name] = g.Name
			}
		}
	}
	return errors.Join(errs...)
}

// groupLine is where a group and each of its cluster names are written.
type groupLine struct {
	item     int
	clusters []int
}

// groupLines finds the lines of the groups in the config text (the decoded struct has none).
func groupLines(data []byte) []groupLine {
	var root yamlv3.Node
	if yamlv3.Unmarshal(data, &root) != nil || len(root.Content) == 0 {
		return nil
	}
	groups := mappingValue(root.Content[0], "groups")
	if groups == nil || groups.Kind != yamlv3.SequenceNode {
		return nil
	}
	var out []groupLine
	for _, item := range groups.Content {
		gl := groupLine{item: item.Line}
		if cs := mappingValue(item, "clusters"); cs != nil {
			for _, n := range cs.Content {
				gl.clusters = append(gl.clusters, n.Line)
			}
		}
		out = append(out, gl)
	}
	return out
}

// mappingValue is the value of key in a YAML mapping node, or nil.
func mappingValue(m *yamlv3.Node, key string) *yamlv3.Node {
	if m == nil || m.Kind != yamlv3.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
