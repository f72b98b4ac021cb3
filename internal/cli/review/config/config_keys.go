package config

import (
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/clitool"
)

// unknownKeys reports every key of a config document that its Go type does not define, each
// at its line with the nearest key it has, all at once. yaml.v3's KnownFields would stop the
// file with Go type names in one message ("field nme not found in type review.ClusterConfig").
func unknownKeys(path string, data []byte) error {
	var doc yamlv3.Node
	if err := yamlv3.Unmarshal(data, &doc); err != nil {
		return nil // a syntax error is the decoder's to report
	}
	var errs []error
	walkKeys(&doc, reflect.TypeOf(Config{}), func(key *yamlv3.Node, known []string) {
		msg := fmt.Sprintf("%s: unknown key %q at line %d", path, key.Value, key.Line)
		if near := clitool.Nearest(key.Value, known); near != "" {
			msg += fmt.Sprintf("; did you mean %q?", near)
		} else {
			msg += fmt.Sprintf(" (known here: %s)", strings.Join(known, ", "))
		}
		errs = append(errs, errors.New(msg))
	})
	return errors.Join(errs...)
}

// walkKeys calls unknown for each mapping key under n that t, the Go type n decodes into, has
// no field for, with the keys it has.
func walkKeys(n *yamlv3.Node, t reflect.Type, unknown func(key *yamlv3.Node, known []string)) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch n.Kind {
	case yamlv3.DocumentNode, yamlv3.SequenceNode:
		if n.Kind == yamlv3.SequenceNode {
			if t.Kind() != reflect.Slice {
				return
			}
			t = t.Elem()
		}
		for _, c := range n.Content {
			walkKeys(c, t, unknown)
		}
	case yamlv3.MappingNode:
		if t.Kind() != reflect.Struct {
			return
		}
		fields := yamlFields(t)
		known := make([]string, 0, len(fields))
		for k := range fields {
			known = append(known, k)
		}
		sort.Strings(known)
		for i := 0; i+1 < len(n.Content); i += 2 {
			key := n.Content[i]
			if ft, ok := fields[key.Value]; ok {
				walkKeys(n.Content[i+1], ft, unknown)
			} else {
				unknown(key, known)
			}
		}
	}
}

// yamlFields are a struct's keys (its yaml tags) with their field types.
func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.IsExported() && name != "" && name != "-" {
			out[name] = f.Type
		}
	}
	return out
}
