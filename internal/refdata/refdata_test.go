package refdata

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// A file reads the same whether it is stored plain or compressed, and a rewrite keeps the
// form it is stored in.
func TestReadWriteKeepTheStoredForm(t *testing.T) {
	dir := t.TempDir()
	plain, packed := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	if err := os.WriteFile(plain, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(packed+".gz", []byte(`{"b":1}`)); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{plain: "{}", packed: `{"b":1}`} {
		got, err := ReadFile(p)
		if err != nil || string(got) != want {
			t.Errorf("ReadFile(%s) = %q, %v; want %q", p, got, err, want)
		}
	}
	if err := WriteFile(packed, []byte(`{"b":2}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(packed); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("rewriting %s created a plain copy beside the compressed one (%v)", packed, err)
	}
	raw, _ := os.ReadFile(packed + ".gz")
	if !bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		t.Errorf("%s.gz is not gzip after the rewrite", packed)
	}
	if got, _ := ReadFile(packed); string(got) != `{"b":2}` {
		t.Errorf("after the rewrite ReadFile = %q", got)
	}
	// Same content, same bytes: a refresh that changes nothing changes no file.
	again := filepath.Join(dir, "c.json.gz")
	if err := WriteFile(again, []byte(`{"b":2}`)); err != nil {
		t.Fatal(err)
	}
	if raw2, _ := os.ReadFile(again); !bytes.Equal(raw, raw2) {
		t.Error("the compressed form depends on more than the content")
	}
}

func TestMissingFileNamesBothForms(t *testing.T) {
	_, err := ReadFile(filepath.Join(t.TempDir(), "x.json"))
	if !errors.Is(err, fs.ErrNotExist) || !bytes.Contains([]byte(err.Error()), []byte("x.json.gz")) {
		t.Errorf("err = %v; want not-exist naming x.json.gz", err)
	}
}
