package bicepgen

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/kinds"
)

// Module is a Bicep module whose main.bicep holds generated types.
type Module struct {
	// Dir is the module's folder relative to the bicep/ directory.
	Dir  string
	Kind Kind
}

// Modules are the modules the generator fills.
func Modules() []Module {
	return []Module{
		{Dir: "modules/karpenter-nodepool", Kind: Kind{Resource: "karpenter_nodepool", Kind: kinds.NodePool, TypeName: "nodePoolType", SpecTypeName: "nodePoolSpecType"}},
		{Dir: "modules/karpenter-aksnodeclass", Kind: Kind{Resource: "karpenter_aksnodeclass", Kind: kinds.AKSNodeClass, TypeName: "aksNodeClassType", SpecTypeName: "aksNodeClassSpecType"}},
	}
}

// Generate returns the generated region of m's main.bicep.
func (m Module) Generate() (string, error) {
	decls, err := Build(m.Kind)
	if err != nil {
		return "", err
	}
	return Render(decls), nil
}

// Write regenerates m's types in place; bicepDir is the repository's bicep/ directory.
func (m Module) Write(bicepDir string) error {
	path := filepath.Join(bicepDir, m.Dir, "main.bicep")
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	body, err := m.Generate()
	if err != nil {
		return fmt.Errorf("%s: %w", m.Dir, err)
	}
	updated, err := Splice(string(old), body)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if updated == string(old) {
		return nil
	}
	return os.WriteFile(path, []byte(updated), 0o644)
}
