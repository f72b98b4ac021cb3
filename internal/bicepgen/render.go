package bicepgen

import (
	"fmt"
	"regexp"
	"strings"
)

// Markers delimit the generated region of a module's main.bicep.
const (
	BeginMarker = "// ---- BEGIN GENERATED TYPES: internal/bicepgen from the provider schema; run `go generate ./bicep/...`. Do not edit by hand. ----"
	EndMarker   = "// ---- END GENERATED TYPES ----"
)

// Render returns the Bicep text of the declarations, each exported.
func Render(decls []Decl) string {
	var b strings.Builder
	for i, d := range decls {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("@export()\n")
		fmt.Fprintf(&b, "@description(%s)\n", Quote(d.Description))
		fmt.Fprintf(&b, "type %s = %s\n", d.Name, typeExpr(d.Type, 0))
	}
	return b.String()
}

func typeExpr(t *Type, depth int) string {
	switch t.Kind {
	case String:
		return "string"
	case Int:
		return "int"
	case Bool:
		return "bool"
	case Any:
		return "any"
	case Ref:
		return t.Ref
	case Literals:
		q := make([]string, len(t.Literals))
		for i, l := range t.Literals {
			q[i] = Quote(l)
		}
		if len(q) == 1 {
			return q[0]
		}
		return "(" + strings.Join(q, " | ") + ")"
	case Array:
		return typeExpr(t.Elem, depth) + "[]"
	case Map:
		ind := strings.Repeat("  ", depth)
		pragma := ""
		if t.Elem.Kind == Any {
			// Quantities are integers or strings, which no Bicep type but any (Bicep 0.38 and
			// later) covers; the linter's no-explicit-any rule warns on every use of it.
			pragma = ind + "  #disable-next-line no-explicit-any\n"
		}
		return "{\n" + pragma + ind + "  *: " + typeExpr(t.Elem, depth+1) + "\n" + ind + "}"
	case Object:
		ind := strings.Repeat("  ", depth)
		var b strings.Builder
		b.WriteString("{\n")
		for i, p := range t.Props {
			if i > 0 {
				b.WriteString("\n")
			}
			in := ind + "  "
			fmt.Fprintf(&b, "%s@description(%s)\n", in, Quote(p.Description))
			for _, d := range p.Decorators {
				b.WriteString(in + d + "\n")
			}
			typ := typeExpr(p.Type, depth+1)
			if p.Optional {
				typ += "?"
			}
			fmt.Fprintf(&b, "%s%s: %s\n", in, propName(p.Name), typ)
		}
		b.WriteString(ind + "}")
		return b.String()
	}
	panic(fmt.Sprintf("bicepgen: unknown type kind %d", t.Kind))
}

var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func propName(s string) string {
	if identifier.MatchString(s) {
		return s
	}
	return Quote(s)
}

// Quote renders s as a single-quoted Bicep string. Bicep interpolates ${...} in every
// single-quoted string, so `${` is escaped along with quotes, backslashes and control characters.
func Quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "${", `\${`, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return "'" + r.Replace(s) + "'"
}

// Splice replaces the generated region of a main.bicep with body. The markers must be present
// exactly once: they are placed by hand, and the generator only fills them.
func Splice(file, body string) (string, error) {
	begin := strings.Index(file, BeginMarker)
	end := strings.Index(file, EndMarker)
	if begin < 0 || end < 0 || end < begin || strings.Count(file, BeginMarker) != 1 || strings.Count(file, EndMarker) != 1 {
		return "", fmt.Errorf("the file needs exactly one %q line followed by one %q line", BeginMarker, EndMarker)
	}
	head := file[:begin+len(BeginMarker)]
	return head + "\n\n" + body + "\n" + file[end:], nil
}

// Region returns the generated region of a main.bicep as Splice writes it.
func Region(file string) (string, error) {
	begin := strings.Index(file, BeginMarker)
	end := strings.Index(file, EndMarker)
	if begin < 0 || end < 0 || end < begin {
		return "", fmt.Errorf("no generated region (%q … %q)", BeginMarker, EndMarker)
	}
	return file[begin+len(BeginMarker) : end], nil
}
