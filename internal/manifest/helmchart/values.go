package helmchart

import (
	"fmt"

	"helm.sh/helm/v3/pkg/strvals"
	"sigs.k8s.io/yaml"
)

// ValuesFile is a values file given on the command line (--helm-values).
type ValuesFile struct {
	Name string
	Data []byte
}

// Values merges values files, later ones winning, then --helm-set assignments
// (key=value, key.sub[0]=value, several comma-separated), as helm template's -f and --set
// do (Helm's values.Options.MergeValues, without the remote files it could fetch).
func Values(files []ValuesFile, sets []string) (map[string]any, error) {
	base := map[string]any{}
	for _, f := range files {
		cur := map[string]any{}
		if err := yaml.Unmarshal(f.Data, &cur); err != nil {
			return nil, fmt.Errorf("values file %s: %w", f.Name, err)
		}
		base = mergeMaps(base, cur)
	}
	for _, s := range sets {
		if err := strvals.ParseInto(s, base); err != nil {
			return nil, fmt.Errorf("--helm-set %s: %w", s, err)
		}
	}
	return base, nil
}

// mergeMaps is Helm's merge of values files (pkg/cli/values, unexported there): maps merge
// recursively, anything else is replaced.
func mergeMaps(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		if vm, ok := v.(map[string]any); ok {
			if bv, ok := out[k]; ok {
				if bm, ok := bv.(map[string]any); ok {
					out[k] = mergeMaps(bm, vm)
					continue
				}
			}
		}
		out[k] = v
	}
	return out
}
