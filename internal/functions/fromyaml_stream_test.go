package functions_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/testsupport/acctest"
)

// A file that review accepts is accepted by nodepool_from_yaml and aksnodeclass_from_yaml
// (issue 20): the stream review reads in TestReviewReadsSeparators (internal/cli/review), with a
// --- # comment separator, a leading ---, a comment-only document and a ... end, as written,
// with CRLF and with a byte order mark. Before the functions read streams with
// internal/manifest, the --- # comment line did not separate documents and the NodePool after
// it was not found.
func TestAccFromYAMLReadsWhatReviewReads(t *testing.T) {
	data, err := os.ReadFile("../manifest/testdata/separators.yaml")
	if err != nil {
		t.Fatal(err)
	}
	crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	dir := t.TempDir()
	var steps []resource.TestStep
	for name, v := range map[string][]byte{"lf": data, "crlf": crlf, "bom": append([]byte("\xef\xbb\xbf"), crlf...)} {
		f := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(f, v, 0o600); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, resource.TestStep{
			Config: `
output "pool" { value = provider::karpenter::nodepool_from_yaml(file("` + f + `")) }
output "nc" { value = provider::karpenter::aksnodeclass_from_yaml(file("` + f + `")) }
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValueAtPath("pool", tfjsonpath.New("name"), knownvalue.StringExact("general")),
				statecheck.ExpectKnownOutputValueAtPath("pool", tfjsonpath.New("limits").AtMapKey("cpu"), knownvalue.StringExact("100")),
				statecheck.ExpectKnownOutputValueAtPath("nc", tfjsonpath.New("name"), knownvalue.StringExact("default")),
				statecheck.ExpectKnownOutputValueAtPath("nc", tfjsonpath.New("image_family"), knownvalue.StringExact("AzureLinux")),
			},
		})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.Factories(), Steps: steps})
}

// A stream kubectl refuses is refused with the line of the problem.
func TestAccFromYAMLStreamProblemsHaveLines(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(f, []byte("apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: a}\n--- {b: 1}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      `output "pool" { value = provider::karpenter::nodepool_from_yaml(file("` + f + `")) }`,
			ExpectError: regexp.MustCompile(`(?s)line\s+4:.*not\s+a\s+document\s+separator\s+kubectl\s+accepts`),
		}},
	})
}
