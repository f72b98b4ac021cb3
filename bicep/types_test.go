package bicep

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/bicepgen"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/aksnodeclass"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/crdresource"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/resources/nodepool"
)

// The committed types are exactly what the generator makes from the provider's schema now: a
// change of the CRDs or of the provider's layout fails here until `go generate ./bicep/...`
// is run and the result committed.
func TestGeneratedTypesMatchProviderSchema(t *testing.T) {
	for _, m := range bicepgen.Modules() {
		t.Run(m.Dir, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(m.Dir, "main.bicep"))
			if err != nil {
				t.Fatal(err)
			}
			committed, err := bicepgen.Region(string(data))
			if err != nil {
				t.Fatal(err)
			}
			body, err := m.Generate()
			if err != nil {
				t.Fatal(err)
			}
			want := "\n\n" + body + "\n"
			if committed != want {
				cl, wl := strings.Split(committed, "\n"), strings.Split(want, "\n")
				for i := 0; i < len(cl) && i < len(wl); i++ {
					if cl[i] != wl[i] {
						t.Fatalf("%s/main.bicep: generated types are stale from line %d of the region:\n committed: %s\n generated: %s\nrun `go generate ./bicep/...` and commit the result", m.Dir, i, cl[i], wl[i])
					}
				}
				t.Fatalf("%s/main.bicep: generated types are stale (%d lines committed, %d generated); run `go generate ./bicep/...`", m.Dir, len(cl), len(wl))
			}
		})
	}
}

// The types cover the provider's resource schema attribute by attribute, read through the
// provider's public Schema rather than the tree the generator walks: every configurable
// attribute has a property, required exactly when Terraform requires it, with the default the
// attribute documents, and nothing else is generated.
func TestTypesMirrorTerraformSchema(t *testing.T) {
	cases := []struct {
		mod  string
		res  resource.Resource
		kind *crdresource.Kind
	}{
		{"modules/karpenter-nodepool", nodepool.New(), nodepool.Kind},
		{"modules/karpenter-aksnodeclass", aksnodeclass.New(), aksnodeclass.Kind},
	}
	defaultRe := regexp.MustCompile("Defaults to `([^`]*)` as the API server does")
	for _, c := range cases {
		t.Run(c.mod, func(t *testing.T) {
			var mod bicepgen.Module
			for _, m := range bicepgen.Modules() {
				if m.Dir == c.mod {
					mod = m
				}
			}
			decls, err := bicepgen.Build(mod.Kind)
			if err != nil {
				t.Fatal(err)
			}
			props := map[string]*bicepgen.Property{}
			var walk func(ty *bicepgen.Type)
			walk = func(ty *bicepgen.Type) {
				if ty == nil {
					return
				}
				for _, p := range ty.Props {
					if p.TerraformPath != "" {
						props[p.TerraformPath] = p
					}
					walk(p.Type)
				}
				walk(ty.Elem)
			}
			for _, d := range decls {
				walk(d.Type)
			}

			var resp resource.SchemaResponse
			c.res.Schema(context.Background(), resource.SchemaRequest{}, &resp)
			seen := map[string]bool{}
			var visit func(prefix string, attrs map[string]schema.Attribute)
			visit = func(prefix string, attrs map[string]schema.Attribute) {
				for name, a := range attrs {
					path := name
					if prefix != "" {
						path = prefix + "." + name
					}
					// id, timeouts, take_ownership_from and cluster (a Bicep deployment targets its own
					// cluster) are Terraform's own, and the kind's extra attributes (plan-time check
					// settings and results) are not part of the Kubernetes object.
					if _, extra := c.kind.ExtraAttributes[name]; prefix == "" && (extra || name == "id" || name == "timeouts" || name == crdresource.TakeOwnershipFrom || name == crdresource.ClusterAttribute) {
						continue
					}
					if a.IsComputed() && !a.IsOptional() && !a.IsRequired() {
						continue
					}
					seen[path] = true
					p, ok := props[path]
					if !ok {
						t.Errorf("attribute %s has no Bicep property", path)
						continue
					}
					if a.IsRequired() == p.Optional {
						t.Errorf("attribute %s: Terraform required=%v, Bicep optional=%v", path, a.IsRequired(), p.Optional)
					}
					wantDefault := ""
					if m := defaultRe.FindStringSubmatch(a.GetMarkdownDescription()); m != nil {
						wantDefault = m[1]
					}
					if got := strings.Trim(p.Default, `"`); got != wantDefault {
						t.Errorf("attribute %s: Terraform documents default %q, Bicep %q", path, wantDefault, got)
					}
					switch n := a.(type) {
					case schema.SingleNestedAttribute:
						visit(path, n.Attributes)
					case schema.ListNestedAttribute:
						visit(path+"[*]", n.NestedObject.Attributes)
					}
				}
			}
			visit("", resp.Schema.Attributes)
			for path := range props {
				if !seen[path] {
					t.Errorf("Bicep property for %s has no Terraform attribute", path)
				}
			}
			t.Logf("compared %d attributes", len(seen))
			if len(seen) < 15 {
				t.Fatalf("only %d attributes compared", len(seen))
			}
		})
	}
}
