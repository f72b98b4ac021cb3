// Package manifest is the one reader of Kubernetes manifests. It splits a YAML (or JSON)
// stream into documents exactly where kubectl's reader (k8s.io/apimachinery/pkg/util/yaml)
// splits it. It decodes each document as kubectl does (sigs.k8s.io/yaml: YAML 1.1, integers
// as int64). It keeps where each document and each of its fields was written, and identifies
// apiVersion and kind. The review command, the *_from_yaml functions, the simulation data
// source and the simulate command all read manifests through it, so a file one of them
// accepts is read the same way by the others.
//
// The package is free of terraform-plugin-framework imports.
package manifest
