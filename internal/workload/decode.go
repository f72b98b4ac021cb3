package workload

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// servedVersions are the versions current Kubernetes serves for the kinds read.
var servedVersions = map[schema.GroupKind]string{
	{Group: "apps", Kind: "Deployment"}:                     "apps/v1",
	{Group: "apps", Kind: "ReplicaSet"}:                     "apps/v1",
	{Group: "apps", Kind: "StatefulSet"}:                    "apps/v1",
	{Group: "apps", Kind: "DaemonSet"}:                      "apps/v1",
	{Group: "batch", Kind: "Job"}:                           "batch/v1",
	{Group: "batch", Kind: "CronJob"}:                       "batch/v1",
	{Group: "", Kind: "Pod"}:                                "v1",
	{Group: "", Kind: "ReplicationController"}:              "v1",
	{Group: "autoscaling", Kind: "HorizontalPodAutoscaler"}: "autoscaling/v2",
}

func servedVersion(gk schema.GroupKind, version string) bool {
	if gk.Group == "autoscaling" {
		return version == "v1" || version == "v2"
	}
	return version == "v1"
}

// decode reads the object as the API server's JSON decoding does: through encoding/json into
// the typed API struct, so a wrong type fails with the field's path.
func decode(body map[string]any, into any) error {
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, into)
}

// decodeError reports why a document is not a valid object of its kind, at the field.
func (s *Set) decodeError(d Document, kind string, err error) {
	field, msg := "", err.Error()
	fix := "Fix the field's type as the API reference gives it; nothing of this object was simulated."
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field = te.Field
		if key := offendingKey(d.Body, splitField(field), te.Value); key != "" {
			field += "." + key
		}
		msg = fmt.Sprintf("%s is a %s where the API takes %s (kubectl apply fails the same way)", field, te.Value, te.Type)
		if te.Type.Kind().String() == "string" && (te.Value == "bool" || te.Value == "number") {
			fix = "Quote the value: YAML 1.1, which kubectl reads, takes unquoted yes/no/on/off/true/false as booleans " +
				"and 1.10, 0755 or 1e3 as numbers."
		}
	}
	s.malformed(d, kind, field, msg, fix)
}

// offendingKey names the entry of a map (labels, a node selector) whose value has the JSON
// type the decoder rejected: encoding/json's path stops at the map.
func offendingKey(body map[string]any, at []string, jsonType string) string {
	var cur any = body
	for _, seg := range at {
		switch x := cur.(type) {
		case map[string]any:
			cur = x[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(x) {
				return ""
			}
			cur = x[i]
		default:
			return ""
		}
	}
	m, ok := cur.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		switch m[k].(type) {
		case bool:
			if jsonType == "bool" {
				return k
			}
		case int64, float64:
			if jsonType == "number" {
				return k
			}
		case map[string]any:
			if jsonType == "object" {
				return k
			}
		case []any:
			if jsonType == "array" {
				return k
			}
		}
	}
	return ""
}

// quantities checks every resource quantity of the object's pod spec before decoding, so that
// a bad one is reported at its own field (the JSON decoder does not say where it failed).
func (s *Set) quantities(d Document, kind string) bool {
	ok := true
	var walk func(v any, at []string)
	walk = func(v any, at []string) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				p := append(append([]string(nil), at...), k)
				if (k == "requests" || k == "limits") && len(at) > 0 && at[len(at)-1] == "resources" || k == "overhead" {
					if m, isMap := e.(map[string]any); isMap {
						for name, q := range m {
							if !validQuantity(q) {
								ok = false
								f := append(p, name)
								s.malformed(d, kind, joinField(f), fmt.Sprintf("%s: %v is not a Kubernetes quantity", joinField(f), q),
									"Write a quantity such as 500m, 2, 1Gi or 512Mi.")
							}
						}
						continue
					}
				}
				walk(e, p)
			}
		case []any:
			for i, e := range x {
				walk(e, append(append([]string(nil), at...), strconv.Itoa(i)))
			}
		}
	}
	walk(d.Body["spec"], []string{"spec"})
	return ok
}

func validQuantity(v any) bool {
	switch x := v.(type) {
	case string:
		_, err := resource.ParseQuantity(x)
		return err == nil
	case int64, float64:
		return true
	}
	return false
}

// joinField writes a path as the API server prints it: spec.containers[0].resources.
func joinField(p []string) string {
	var b strings.Builder
	for _, s := range p {
		if _, err := strconv.Atoi(s); err == nil {
			b.WriteString("[" + s + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// splitField is the inverse of joinField (also reading encoding/json's dotted paths).
func splitField(f string) []string {
	if f == "" {
		return nil
	}
	f = strings.NewReplacer("[", ".", "]", "").Replace(f)
	return strings.Split(f, ".")
}
