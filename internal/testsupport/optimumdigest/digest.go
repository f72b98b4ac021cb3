package optimumdigest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"os"
	"strings"
	"testing"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/simmodel"
)

// Digest hashes simulations in the order they are added.
type Digest struct {
	total hash.Hash
	lines []string
}

// New is an empty digest.
func New() *Digest { return &Digest{total: sha256.New()} }

// Add hashes sim as JSON and keeps a line for OPTIMUM_DIGEST_OUT: the label, then the cost,
// the bound and the node count, then the JSON.
func (d *Digest) Add(t testing.TB, label string, sim *simmodel.Simulation) {
	t.Helper()
	b, err := json.Marshal(sim)
	if err != nil {
		t.Fatalf("%s: %v", label, err)
	}
	d.total.Write(b)
	d.lines = append(d.lines, fmt.Sprintf("%s cost %.6f bound %.6f nodes %d %s", label, sim.HourlyCost, sim.LowerBound, len(sim.Nodes), b))
}

// Check compares the digest with the one committed in file. OPTIMUM_DIGEST=update writes it
// instead (a deliberate change to the optimum commits the new file); OPTIMUM_DIGEST_OUT=FILE
// writes one line per simulation, to diff two versions.
func (d *Digest) Check(t testing.TB, file string) {
	t.Helper()
	got := hex.EncodeToString(d.total.Sum(nil))
	if out := os.Getenv("OPTIMUM_DIGEST_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(d.lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if os.Getenv("OPTIMUM_DIGEST") == "update" {
		if err := os.WriteFile(file, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v: run OPTIMUM_DIGEST=update and commit %s", err, file)
	}
	if want := strings.TrimSpace(string(b)); want != got {
		t.Fatalf("optimum digest %s, want %s (%s): an optimum changed; a deliberate change runs OPTIMUM_DIGEST=update", got, want, file)
	}
}
