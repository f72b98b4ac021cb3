package source

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/cli/review/config"
	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// In CI on a pull request the reviewed tree is attacker-controlled: a committed symlink to
// /dev/zero, a kustomization resource ../../../../etc/passwd or a FIFO must not make the
// review read without bound, hang, or disclose files outside the tree. So the review reads
// only regular files, at most MaxFileBytes each and MaxTotalBytes in all, and only below its
// roots (the working directory, the config file's directory and the paths named on the
// command line) unless AllowOutsideRoot.

// Default read limits: far above any real NodePool manifest or plan, far below what would
// exhaust a CI runner.
const (
	DefaultMaxFileBytes  int64 = 8 << 20
	DefaultMaxTotalBytes int64 = 64 << 20
)

// Limits bound what a review reads.
type Limits struct {
	// MaxFileBytes caps each file (and standard input); 0 means DefaultMaxFileBytes.
	MaxFileBytes int64
	// MaxTotalBytes caps all files together; 0 means DefaultMaxTotalBytes.
	MaxTotalBytes int64
	// AllowOutsideRoot reads files outside the review's roots (through .. or symlinks).
	AllowOutsideRoot bool
}

func (l Limits) file() int64 {
	if l.MaxFileBytes > 0 {
		return l.MaxFileBytes
	}
	return DefaultMaxFileBytes
}

func (l Limits) total() int64 {
	if l.MaxTotalBytes > 0 {
		return l.MaxTotalBytes
	}
	return DefaultMaxTotalBytes
}

// notRead is why a file was not read; it becomes finding KRP012 on the file.
type notRead struct{ Msg, fix string }

func (n *notRead) Finding(display string) Finding {
	return FileFinding(findings.InputNotRead, Location{File: display}, n.Msg, n.fix)
}

// resolve follows the symlinks of an absolute path as the kernel would, also when its target
// does not exist (then the rest is taken as written), so that a dangling link out of the tree
// is refused exactly like one whose target exists: the review says nothing about files
// outside its roots.
func resolve(abs string) string {
	abs = filepath.Clean(abs)
	for hops := 0; hops < 64; hops++ {
		vol := filepath.VolumeName(abs)
		parts := strings.Split(strings.TrimPrefix(abs[len(vol):], string(filepath.Separator)), string(filepath.Separator))
		cur := vol + string(filepath.Separator)
		restarted := false
		for i, p := range parts {
			if p == "" {
				continue
			}
			next := filepath.Join(cur, p)
			st, err := os.Lstat(next)
			if err != nil {
				// Missing (or unreadable): the rest is taken as written.
				return filepath.Join(append([]string{next}, parts[i+1:]...)...)
			}
			if st.Mode()&fs.ModeSymlink == 0 {
				cur = next
				continue
			}
			target, err := os.Readlink(next)
			if err != nil {
				return filepath.Join(append([]string{next}, parts[i+1:]...)...)
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(cur, target)
			}
			abs = filepath.Join(append([]string{target}, parts[i+1:]...)...)
			restarted = true
			break
		}
		if !restarted {
			return filepath.Clean(cur)
		}
	}
	return abs // a symlink loop; opening it fails with ELOOP
}

// within reports whether path is root or below it.
func within(root, path string) bool {
	r, err := filepath.Rel(root, path)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r)
}

// addRoot lets the review read below dir (resolved).
func (l *Loader) addRoot(dir string) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	l.roots = append(l.roots, resolve(abs))
}

// Confined says why abs may not be read because it leaves the roots, or nil. The check is
// made before anything about abs is looked at beyond the symlinks on its way, so the answer
// is the same whether a file outside exists or not.
func (l *Loader) Confined(abs string) *notRead {
	if l.limits.AllowOutsideRoot || len(l.roots) == 0 {
		return nil
	}
	lexical, real := filepath.Clean(abs), resolve(abs)
	for _, r := range l.roots {
		if within(r, real) {
			return nil
		}
	}
	how := "is outside"
	for _, r := range l.roots {
		if within(r, lexical) {
			how = "is a symlink that leads outside"
		}
	}
	return &notRead{
		Msg: fmt.Sprintf("%s %s the reviewed tree (%s); it was not read", l.Display(abs), how, strings.Join(l.displayRoots(), ", ")),
		fix: "Keep the files a review reads inside the repository, or run the review with --allow-outside-root if reading outside it is intended.",
	}
}

func (l *Loader) displayRoots() []string {
	var out []string
	for _, r := range l.roots {
		out = append(out, l.Display(r))
	}
	return out
}

// ReadFile reads a regular file within the limits. It never opens anything else: opening a
// FIFO blocks until a writer comes, and a device such as /dev/zero never ends.
func (l *Loader) ReadFile(abs string) ([]byte, *notRead, error) {
	if n := l.Confined(abs); n != nil {
		return nil, n, nil
	}
	st, err := os.Stat(abs)
	if err != nil {
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &notRead{
			Msg: fmt.Sprintf("%s is %s, not a regular file; it was not read", l.Display(abs), config.FileKind(st.Mode())),
			fix: "Commit regular files only; pipe generated output to the review with - instead.",
		}, nil
	}
	if n := l.budget(abs, st.Size()); n != nil {
		return nil, n, nil
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	return l.readCapped(abs, f, st.Size())
}

// budget says why a file of size bytes would exceed a limit, or nil.
func (l *Loader) budget(abs string, size int64) *notRead {
	if size > l.limits.file() {
		return &notRead{
			Msg: fmt.Sprintf("%s has %d bytes, more than the limit of %d bytes per file; it was not read", l.Display(abs), size, l.limits.file()),
			fix: "Split the file, exclude it in .karpenter-review.yaml, or raise the limit with --max-file-bytes.",
		}
	}
	if l.read+size > l.limits.total() {
		return &notRead{
			Msg: fmt.Sprintf("reading %s (%d bytes) would exceed the limit of %d bytes for all inputs together (%d read); it was not read", l.Display(abs), size, l.limits.total(), l.read),
			fix: "Review fewer paths at once, exclude what is not Karpenter configuration in .karpenter-review.yaml, or raise the limit with --max-total-bytes.",
		}
	}
	return nil
}

// readCapped reads r, which claimed size bytes, stopping at the limits even if it grows.
func (l *Loader) readCapped(abs string, r io.Reader, size int64) ([]byte, *notRead, error) {
	limit := min(l.limits.file(), l.limits.total()-l.read)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > limit {
		n := l.budget(abs, max(size, int64(len(data))))
		if n == nil { // grew while read
			n = l.budget(abs, l.limits.file()+1)
		}
		return nil, n, nil
	}
	l.read += int64(len(data))
	return data, nil, nil
}

// readStdin reads standard input within the limits.
func (l *Loader) readStdin(r io.Reader) ([]byte, *notRead, error) {
	limit := min(l.limits.file(), l.limits.total()-l.read)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(data)) > limit {
		return nil, &notRead{
			Msg: fmt.Sprintf("standard input has more than the limit of %d bytes; it was not reviewed", limit),
			fix: "Review the output in parts, or raise the limit with --max-file-bytes (and --max-total-bytes).",
		}, nil
	}
	l.read += int64(len(data))
	return data, nil, nil
}
