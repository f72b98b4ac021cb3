package refdata

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// gz is the suffix of a compressed reference file.
const gz = ".gz"

// Stored returns the path under which the file with logical path p is stored: p itself,
// else p.gz. The error names both when neither exists.
func Stored(p string) (string, error) {
	if _, err := os.Stat(p); err == nil {
		return p, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	if _, err := os.Stat(p + gz); err == nil {
		return p + gz, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return "", fmt.Errorf("%s: neither it nor %s exists: %w", p, filepath.Base(p)+gz, fs.ErrNotExist)
}

// ReadFile returns the content of the file with logical path p, decompressed when it is
// stored as p.gz (or when p itself ends in .gz).
func ReadFile(p string) ([]byte, error) {
	stored, err := Stored(p)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(stored)
	if err != nil || filepath.Ext(stored) != gz {
		return data, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", stored, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", stored, err)
	}
	return out, nil
}

// WriteFile replaces the file with logical path p in the form it is stored in now:
// compressed when p.gz exists (or p ends in .gz), plain otherwise. The compressed form
// carries no name or time, so the same content always gives the same bytes.
func WriteFile(p string, data []byte) error {
	stored, err := Stored(p)
	if errors.Is(err, fs.ErrNotExist) {
		stored = p
	} else if err != nil {
		return err
	}
	if filepath.Ext(stored) != gz {
		return writeAtomic(stored, data)
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(data); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return writeAtomic(stored, buf.Bytes())
}

// writeAtomic writes through a temporary file in the same directory, so that an
// interrupted refresh never leaves a truncated reference file.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
