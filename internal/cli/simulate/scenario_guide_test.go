package simulate

import (
	"os"
	"strings"
	"testing"
)

// The guide's section 4 shows simulate's after-the-change output for the scale-down and the
// pool-change scenarios; both blocks must be what the command prints now.
func TestGuideScenarioOutputs(t *testing.T) {
	guide, err := os.ReadFile("../../../templates/guides/what-will-this-change-do.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, example := range []string{"scale-down", "pool-change"} {
		t.Run(example, func(t *testing.T) {
			command := "terraform-provider-karpenter simulate examples/simulate/" + example + "\n```\n"
			_, rest, ok := strings.Cut(string(guide), command)
			_, block, found := strings.Cut(rest, "```text\n")
			block, _, _ = strings.Cut(block, "```")
			if !ok || !found || block == "" {
				t.Fatalf("the guide has no output block after %q", command)
			}
			code, out, errOut := run(t, "", "../../../examples/simulate/"+example)
			if code != ExitClean {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out, block) {
				t.Errorf("the guide shows\n%s\nbut the command prints\n%s", block, out)
			}
		})
	}
}
