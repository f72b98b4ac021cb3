package manifest

import "github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"

// The codes of the problems a stream can have.
const (
	Unparseable        = findings.Unparseable        // KRP005: not YAML (or JSON) kubectl reads
	UnrenderedTemplate = findings.UnrenderedTemplate // KRP006: a Go template, not a manifest
)

// Problem is what is wrong with a stream: the one finding value (code, message, fix; its
// severity is the registry's), at a line of its file.
type Problem struct {
	findings.Finding
	File string
	Line int
}

func (p Problem) Error() string { return p.File + ":" + itoa(p.Line) + ": " + p.Message }

const fixSyntax = "Fix the syntax at this line; nothing else in this document was reviewed."

func problem(code findings.Code, file string, line int, msg, fix string) Problem {
	return Problem{Finding: findings.New(code, "", msg, fix), File: file, Line: line}
}
