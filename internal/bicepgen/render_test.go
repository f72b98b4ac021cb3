package bicepgen

import (
	"strings"
	"testing"
)

// Descriptions come from CRD text, which contains quotes, backslashes and ${: they must not
// end the string or start an interpolation.
func TestQuoteEscapesWhatBicepInterprets(t *testing.T) {
	got := Quote(`it's a \path with ${x} and` + "\nnewline")
	want := `'it\'s a \\path with \${x} and\nnewline'`
	if got != want {
		t.Fatalf("Quote = %s, want %s", got, want)
	}
}

func TestSpliceReplacesOnlyTheRegion(t *testing.T) {
	file := "head\n" + BeginMarker + "\nold\n" + EndMarker + "\ntail\n"
	out, err := Splice(file, "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "head\n" + BeginMarker + "\n\nnew\n\n" + EndMarker + "\ntail\n"; out != want {
		t.Fatalf("Splice =\n%s\nwant\n%s", out, want)
	}
	region, _ := Region(out)
	if region != "\n\nnew\n\n" {
		t.Fatalf("Region = %q", region)
	}
	if _, err := Splice("no markers", "x"); err == nil {
		t.Fatal("Splice accepted a file without markers")
	}
	if _, err := Splice(strings.Repeat(BeginMarker+"\n"+EndMarker+"\n", 2), "x"); err == nil {
		t.Fatal("Splice accepted two regions")
	}
}

// Optional properties become nullable types and enums literal unions, with bounds as
// decorators; these are the Bicep forms the generated files rely on.
func TestRenderTypeForms(t *testing.T) {
	ty := &Type{Kind: Object, Props: []*Property{
		{Name: "mode", Type: &Type{Kind: Literals, Literals: []string{"A", "B"}}, Optional: true, Description: "Optional. m."},
		{Name: "n", Type: &Type{Kind: Int}, Decorators: []string{"@minValue(1)"}, Description: "Required. n."},
		{Name: "m", Type: &Type{Kind: Map, Elem: &Type{Kind: Any}}, Optional: true, Description: "Optional. q."},
		{Name: "l", Type: &Type{Kind: Array, Elem: &Type{Kind: Object, Props: []*Property{{Name: "k", Type: &Type{Kind: String}, Description: "Required. k."}}}}, Optional: true, Description: "Optional. l."},
		{Name: "a-b", Type: &Type{Kind: Bool}, Description: "Required. a."},
	}}
	got := Render([]Decl{{Name: "t", Description: "T.", Type: ty}})
	want := `@export()
@description('T.')
type t = {
  @description('Optional. m.')
  mode: ('A' | 'B')?

  @description('Required. n.')
  @minValue(1)
  n: int

  @description('Optional. q.')
  m: {
    #disable-next-line no-explicit-any
    *: any
  }?

  @description('Optional. l.')
  l: {
    @description('Required. k.')
    k: string
  }[]?

  @description('Required. a.')
  'a-b': bool
}
`
	if got != want {
		t.Fatalf("Render =\n%s\nwant\n%s", got, want)
	}
}
