package clusterstate

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Limits of what one snapshot may hold.
const (
	// MaxObjectBytes bounds one object's text. The API server takes no request over 3 MiB
	// (etcd's 1.5 MiB object limit, as JSON or YAML), so a larger item is not one kubectl printed.
	MaxObjectBytes = 8 << 20
	// MaxObjects bounds the objects of a snapshot: Kubernetes documents 150,000 pods and
	// 5,000 nodes per cluster, so a million objects is no cluster's.
	MaxObjects = 1_000_000
)

// ReadFiles reads snapshot files, and the .yaml, .yml and .json files under directories, into
// one snapshot. An error is an unreadable path; what is wrong inside a file is a Problem.
func ReadFiles(paths []string) (*Snapshot, error) {
	s := &Snapshot{}
	for _, p := range paths {
		files, err := snapshotFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if err := s.readFile(f); err != nil {
				return nil, err
			}
		}
	}
	s.sort()
	return s, nil
}

func snapshotFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml", ".json":
			if d.Type().IsRegular() {
				files = append(files, p)
			}
		}
		return nil
	})
	slices.Sort(files)
	return files, err
}

func (s *Snapshot) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // read-only: a close error loses nothing
	return s.Read(path, f)
}

// Read adds one stream to the snapshot: YAML (documents, each a List or an object) or JSON
// (a List, an object, or a sequence of them). Only I/O fails it.
func (s *Snapshot) Read(file string, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	first, err := firstByte(br)
	if err != nil {
		return err
	}
	if first == '{' || first == '[' {
		return s.readJSON(file, br)
	}
	return s.readYAML(file, br)
}

// firstByte peeks at the first byte that is not white space, or 0 for an empty stream.
func firstByte(br *bufio.Reader) (byte, error) {
	for n := 1; ; n++ {
		b, err := br.Peek(n)
		if len(b) < n {
			if errors.Is(err, io.EOF) || errors.Is(err, bufio.ErrBufferFull) {
				return 0, nil
			}
			return 0, err
		}
		switch c := b[n-1]; c {
		case ' ', '\t', '\r', '\n':
		default:
			return c, nil
		}
	}
}

// full reports whether the snapshot holds as many objects as it may, adding the problem once.
func (s *Snapshot) full(src Source) bool {
	n := len(s.Nodes) + len(s.NodeClaims) + len(s.Pods) + len(s.PDBs) + len(s.NodePools) + len(s.NodeClasses) + s.Finished
	if n < MaxObjects {
		return false
	}
	if !s.overflowed {
		s.overflowed = true
		s.problem(src, fmt.Sprintf("more than %d objects: the rest of the snapshot is not read (Kubernetes documents at most 150,000 pods and 5,000 nodes per cluster)", MaxObjects))
	}
	return true
}

// object adds one YAML object (an item of a List, or a whole document) that starts at line.
func (s *Snapshot) object(file string, line int, text []byte) {
	src := Source{File: file, Line: line}
	if s.full(src) {
		return
	}
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		at, msg := yamlErrorLine(err, text)
		s.problem(Source{File: file, Line: line + at}, "not YAML kubectl prints: "+msg)
		return
	}
	s.addJSON(src, j)
}

// addJSON adds an object given as JSON, or each item of a List.
func (s *Snapshot) addJSON(src Source, j []byte) {
	if bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
		return
	}
	if err := s.add(src, j); err != nil {
		s.problem(src, err.Error())
	}
}

var yamlLine = regexp.MustCompile(`yaml: line (\d+): (.*)$`)

// yamlErrorLine returns how many lines into its text a YAML error is, and its message. The
// YAML parser reports a tab that breaks indentation on the line before it, so that error is
// moved to the first line at or after it that is indented with a tab.
func yamlErrorLine(err error, text []byte) (int, string) {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, err.Error()
	}
	n, _ := strconv.Atoi(m[1])
	at := max(n-1, 0)
	if strings.Contains(m[2], "tab character") {
		for i, l := range strings.Split(string(text), "\n") {
			if i >= at && strings.Contains(l[:len(l)-len(strings.TrimLeft(l, " \t"))], "\t") {
				return i, m[2]
			}
		}
	}
	return at, m[2]
}
