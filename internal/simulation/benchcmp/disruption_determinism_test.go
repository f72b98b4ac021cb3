package benchcmp

import (
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// determinismCases are corpus cases (seed, index, pod cap) the determinism test runs:
// dis2-017, a scale-down that once gave Empty=6 and then Empty=5, four more scale-downs (each
// draws its kept pods per app), and dis1-002, a drift of candidates with equal disruption
// costs.
var determinismCases = []struct {
	seed    uint64
	i, pods int
}{{2, 17, 100}, {2, 1, 40}, {2, 5, 40}, {2, 9, 40}, {2, 13, 40}, {1, 2, 40}}

// TestDisruptionEmulationDeterministic runs corpus cases through the emulation three times in
// this process and once in each of three fresh processes, and requires the same outcome (nodes
// before and after, every disruption with its time) every time. The default tie-breaks must
// decide, never Go's map order, which a fresh process draws anew, or the wall clock. The case
// is drawn anew each time, so a corpus draw in map order fails it too.
func TestDisruptionEmulationDeterministic(t *testing.T) {
	if os.Getenv("DETERMINISM_CHILD") != "" {
		fmt.Println("digests:", determinismDigests(t))
		return
	}
	want := determinismDigests(t)
	for run := 2; run <= 3; run++ {
		if got := determinismDigests(t); got != want {
			t.Fatalf("run %d in the same process: %s, run 1: %s", run, got, want)
		}
	}
	if testing.Short() {
		return
	}
	for child := 1; child <= 3; child++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDisruptionEmulationDeterministic$", "-test.count=1")
		cmd.Env = append(os.Environ(), "DETERMINISM_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("process %d: %v\n%s", child, err, out)
		}
		got := ""
		for _, line := range strings.Split(string(out), "\n") {
			if d, ok := strings.CutPrefix(line, "digests: "); ok {
				got = d
			}
		}
		if got != want {
			t.Errorf("process %d gave %q, this process %q", child, got, want)
		}
	}
}

// determinismDigests runs every determinism case through the emulation and returns the
// digests of their outcomes, with the cases' names and reasons to read them by.
func determinismDigests(t *testing.T) string {
	t.Helper()
	var parts []string
	for _, k := range determinismCases {
		c := disruptionCorpusCase(k.seed, k.i, k.pods)
		out, err := emulatedDisruption(c)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		h := sha256.Sum256(fmt.Appendf(nil, "before %s\nafter %s\n%s\npending %d",
			nodeKeysString(out.before), nodeKeysString(out.after), out.timeline(), out.pending))
		parts = append(parts, fmt.Sprintf("%s [%s] %x", c.name[:8], out.reasons(), h[:6]))
	}
	return strings.Join(parts, "; ")
}
