package bicep

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// The Bicep CLI cannot run here, so the tests read the .bicep and .bicepparam files with this
// small line scanner. It understands what the files in this directory use: one declaration or
// property per line, decorators on the lines directly above, '…' strings with \-escapes,
// // and /* */ comments, and {} [] () nesting. It is not a Bicep parser; the external workflow
// (bicep build, bicep lint) checks the full grammar.

// decl is a declaration or a type property with the decorators written directly above it.
type decl struct {
	file       string
	line       int
	keyword    string // param, output, type, func, var, resource, module, import, using, property
	name       string
	rest       string // the text after the name
	decorators []string
	// inType is the type declaration a property belongs to.
	inType string
}

// description returns the argument of the @description decorator, unquoted, or "", false.
func (d decl) description() (string, bool) {
	for _, dec := range d.decorators {
		if strings.HasPrefix(dec, "@description(") {
			arg := strings.TrimSuffix(strings.TrimPrefix(dec, "@description("), ")")
			return unquote(strings.TrimSpace(arg)), true
		}
	}
	return "", false
}

func unquote(s string) string {
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return s
	}
	var b strings.Builder
	body := s[1 : len(s)-1]
	for i := 0; i < len(body); i++ {
		if body[i] == '\\' && i+1 < len(body) {
			i++
			switch body[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(body[i])
			}
			continue
		}
		b.WriteByte(body[i])
	}
	return b.String()
}

var (
	declRe     = regexp.MustCompile(`^(param|output|type|func|var|resource|module|import|using|metadata|extension|targetScope)\b\s*(.*)$`)
	nameRe     = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\s*(.*)$`)
	propertyRe = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*|'(?:[^'\\]|\\.)*'|\*)\s*:\s*(.*)$`)
)

// scan reads one file into its declarations and the properties of its type declarations.
func scan(t *testing.T, path string) []decl {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []decl
	var pending []string
	depth := 0
	typeName, typeDepth := "", -1
	inBlockComment := false
	// decoratorDepth is the depth at which a decorator spanning lines (@allowed([...])) ends.
	decoratorDepth := -1
	for i, raw := range strings.Split(string(data), "\n") {
		line, stillInComment := stripComments(raw, inBlockComment)
		inBlockComment = stillInComment
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		startDepth := depth
		depth += nesting(line)
		if decoratorDepth >= 0 {
			pending[len(pending)-1] += " " + line
			if depth == decoratorDepth {
				decoratorDepth = -1
			}
			continue
		}
		if strings.HasPrefix(line, "@") {
			pending = append(pending, line)
			if depth > startDepth {
				decoratorDepth = startDepth
			}
			continue
		}
		decs := pending
		pending = nil
		if startDepth == 0 {
			typeName, typeDepth = "", -1
			m := declRe.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			d := decl{file: path, line: i + 1, keyword: m[1], decorators: decs, rest: m[2]}
			if n := nameRe.FindStringSubmatch(m[2]); n != nil && m[1] != "import" && m[1] != "using" {
				d.name, d.rest = n[1], n[2]
			}
			if d.keyword == "type" && depth > 0 {
				typeName, typeDepth = d.name, 0
			}
			out = append(out, d)
			continue
		}
		if typeName != "" && typeDepth >= 0 {
			if m := propertyRe.FindStringSubmatch(line); m != nil && m[1] != "*" {
				out = append(out, decl{file: path, line: i + 1, keyword: "property", name: unquote(m[1]), rest: m[2], decorators: decs, inType: typeName})
			}
		}
	}
	return out
}

// stripComments removes comments from one line; inBlock says a /* */ comment is open.
func stripComments(line string, inBlock bool) (string, bool) {
	var b strings.Builder
	inString := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inBlock:
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				inBlock = false
				i++
			}
		case inString:
			b.WriteByte(c)
			if c == '\\' && i+1 < len(line) {
				b.WriteByte(line[i+1])
				i++
			} else if c == '\'' {
				inString = false
			}
		case c == '\'':
			inString = true
			b.WriteByte(c)
		case c == '/' && i+1 < len(line) && line[i+1] == '/':
			return b.String(), false
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			inBlock = true
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), inBlock
}

// nesting is the change of bracket depth over a comment-free line, outside strings.
func nesting(line string) int {
	n := 0
	inString := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if inString {
			if c == '\\' {
				i++
			} else if c == '\'' {
				inString = false
			}
			continue
		}
		switch c {
		case '\'':
			inString = true
		case '{', '[', '(':
			n++
		case '}', ']', ')':
			n--
		}
	}
	return n
}

// bicepFiles lists the .bicep and .bicepparam files under the bicep/ directory.
func bicepFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".bicep") || strings.HasSuffix(p, ".bicepparam")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		t.Fatal("no Bicep files found")
	}
	return files
}

// stringArgs returns the first string argument of every call of fn in the text, e.g. the
// paths of loadYamlContent('…').
func stringArgs(text, fn string) []string {
	re := regexp.MustCompile(regexp.QuoteMeta(fn) + `\(\s*'((?:[^'\\]|\\.)*)'`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(text, -1) {
		out = append(out, unquote("'"+m[1]+"'"))
	}
	return out
}

func TestScannerReadsDeclarationsAndTypeProperties(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.bicep")
	src := `// a comment with a 'quote' and { brace
@description('Required. A \'name\' with { brace.')
@minLength(1)
param name string

/* block
param hidden string
*/
@export()
@description('A type.')
type t = {
  @description('Optional. Nested.')
  inner: {
    @description('Required. Deep.')
    deep: ('a' | 'b')
  }?
  *: string
}

output o string = '${name}}' // trailing
`
	if err := os.WriteFile(p, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	got := scan(t, p)
	var names []string
	for _, d := range got {
		desc, _ := d.description()
		names = append(names, d.keyword+":"+d.name+":"+desc)
	}
	want := []string{
		"param:name:Required. A 'name' with { brace.",
		"type:t:A type.",
		"property:inner:Optional. Nested.",
		"property:deep:Required. Deep.",
		"output:o:",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Fatalf("scan:\n%s\nwant:\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
}
