package source

import (
	"fmt"

	"sigs.k8s.io/yaml"
)

// readKnownSKUs reads the Azure Karpenter provider's known_skus.yaml: the sizes
// it prices normally (every other size gets a penalty price).
func (b *Builder) readKnownSKUs(name string, data []byte) error {
	var entries []struct {
		Name string `json:"name"`
	}
	if err := yaml.Unmarshal(data, &entries); err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name == "" {
			return fmt.Errorf("entry without a name")
		}
		b.known[e.Name] = true
	}
	b.note("%s: sizes known to the Azure Karpenter provider, %d", name, len(entries))
	return nil
}
