package nodeclasscheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/karpenter-iac/terraform-provider-karpenter/internal/findings"
)

// Check returns the findings of one EC2NodeClass object (its unstructured content, as a
// manifest or the provider's plan holds it). Paths are the object's Kubernetes field paths.
func Check(obj map[string]any) []findings.Finding {
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		return nil
	}
	var out []findings.Finding
	out = append(out, checkLatestAlias(obj, spec)...)
	for _, l := range selectorLists {
		terms, _ := spec[l.field].([]any)
		out = append(out, checkTerms(l, terms)...)
	}
	return out
}

// selectorList describes one of the node class's selector-term lists: its field, what it
// selects, the fields of a term in the order Karpenter's provider looks at them (the first set
// one decides and the later ones are ignored, tags being the last and the default case), and
// the prefix of its EC2 IDs.
type selectorList struct {
	field, selects, idPrefix string
	// precedence are the fields that, when set, make Karpenter ignore every later one.
	precedence []string
	// rejectedByCEL reports whether the CRD's CEL rules reject terms because a term sets used
	// together with other (then the validation reports it, and this package does not).
	rejectedByCEL func(terms []any, used, other string) bool
}

var selectorLists = []selectorList{
	{field: "subnetSelectorTerms", selects: "subnet", idPrefix: "subnet-", precedence: []string{"id"},
		// !self.all(x, has(x.id) && has(x.tags))
		rejectedByCEL: func(terms []any, _, _ string) bool { return allSet(terms, "id", "tags") }},
	{field: "securityGroupSelectorTerms", selects: "security group", idPrefix: "sg-", precedence: []string{"id", "name"},
		// !self.all(x, has(x.id) && (has(x.tags) || has(x.name))), and the same for name with tags or id
		rejectedByCEL: func(terms []any, used, _ string) bool {
			if used == "id" {
				return allSet(terms, "id", "tags", "name")
			}
			return allSet(terms, "name", "tags", "id")
		}},
	{field: "amiSelectorTerms", selects: "AMI", idPrefix: "ami-", precedence: []string{"id", "ssmParameter"},
		// !self.exists(x, has(x.id) && (has(x.alias) || has(x.tags) || has(x.name) || has(x.owner))):
		// any term; ssmParameter is in no rule.
		rejectedByCEL: func(_ []any, used, other string) bool { return used == "id" && other != "ssmParameter" }},
}

// allSet reports whether every term sets field and at least one of others: the subnet and
// security group rules use all(), so they reject a combination only when every term has it.
func allSet(terms []any, field string, others ...string) bool {
	for _, raw := range terms {
		t, _ := raw.(map[string]any)
		if !has(t, field) || !slices.ContainsFunc(others, func(o string) bool { return has(t, o) }) {
			return false
		}
	}
	return len(terms) > 0
}

// ec2ID is the form of an EC2 resource ID: its prefix and 8 or 17 lowercase hexadecimal
// digits. The CRD's pattern (e.g. `subnet-[0-9a-z]+`) is unanchored and admits other letters.
var ec2ID = regexp.MustCompile(`^[0-9a-f]{8}([0-9a-f]{9})?$`)

func checkTerms(l selectorList, terms []any) []findings.Finding {
	var out []findings.Finding
	nothing := 0 // terms that select nothing by construction
	for i, raw := range terms {
		term, _ := raw.(map[string]any)
		at := fmt.Sprintf("spec.%s[%d]", l.field, i)
		if id, ok := term["id"].(string); ok {
			if rest, hasPrefix := strings.CutPrefix(id, l.idPrefix); !hasPrefix || !ec2ID.MatchString(rest) {
				nothing++
				out = append(out, findings.New(findings.SelectorMatchesNothing, at+".id",
					fmt.Sprintf("%s selects the %s with ID %q, which is not an EC2 %s ID (%s followed by 8 or 17 lowercase hexadecimal digits): "+
						"the CRD's pattern admits it, but no %s has it, so this term selects nothing.", l.field, l.selects, id, l.selects, l.idPrefix, l.selects),
					fmt.Sprintf("copy the ID from the AWS console or `aws ec2 describe-%s`, e.g. %s0123456789abcdef0", describeNoun(l), l.idPrefix)))
			}
		}
		if f, ok := ignoredField(l, terms, term); ok {
			out = append(out, findings.New(findings.SelectorFieldIgnored, at+"."+f.ignored,
				fmt.Sprintf("This %s term sets %s and %s; Karpenter's AWS provider selects by %s alone and ignores %s (the CRD's rule against the "+
					"combination only fires when every term has it), so the term selects more than it says.", l.selects, f.used, f.ignored, f.used, f.ignored),
				fmt.Sprintf("remove %s from the term, or move it into a term of its own (terms are ORed)", f.ignored)))
		}
		if selectsEverything(l, term) {
			out = append(out, everythingFinding(l, at, term))
		}
	}
	if nothing > 0 && nothing == len(terms) {
		// Every term selects nothing: the node class never resolves and no node launches.
		for i := len(out) - 1; i >= 0; i-- {
			if out[i].Code == findings.SelectorMatchesNothing {
				out[i] = out[i].As(findings.Error)
				out[i].Message += fmt.Sprintf(" No term of %s selects anything, so the EC2NodeClass never becomes Ready and no node launches from it.", l.field)
			}
		}
	}
	return out
}

func describeNoun(l selectorList) string {
	switch l.selects {
	case "subnet":
		return "subnets"
	case "security group":
		return "security-groups"
	}
	return "images"
}

type ignored struct{ used, ignored string }

// ignoredField is the first field of term that Karpenter ignores because a field before it in
// the provider's precedence is set, unless the CRD's CEL already rejects the combination.
func ignoredField(l selectorList, terms []any, term map[string]any) (ignored, bool) {
	later := []string{"name", "owner", "tags"}
	if l.field != "amiSelectorTerms" {
		later = []string{"name", "tags"}
	}
	for i, used := range l.precedence {
		if !has(term, used) {
			continue
		}
		for _, f := range slices.Concat(l.precedence[i+1:], later) {
			if f == used || !has(term, f) {
				continue
			}
			if l.rejectedByCEL(terms, used, f) {
				return ignored{}, false // the API server rejects it: the validation says so
			}
			return ignored{used, f}, true
		}
		return ignored{}, false
	}
	return ignored{}, false
}

func has(term map[string]any, field string) bool {
	v, ok := term[field]
	return ok && v != nil
}

// selectsEverything reports a term that gives Karpenter no filter: tags set but empty (the
// CRD's "expected at least one" rule counts an empty map as set) and nothing else that
// selects. Karpenter then lists every subnet or security group of the region, in every VPC,
// or every AMI the account may launch.
func selectsEverything(l selectorList, term map[string]any) bool {
	tags, ok := term["tags"].(map[string]any)
	if !ok || len(tags) > 0 {
		return false
	}
	for _, f := range []string{"id", "name", "alias", "ssmParameter"} {
		if has(term, f) {
			return false
		}
	}
	return true
}

func everythingFinding(l selectorList, at string, term map[string]any) findings.Finding {
	what := fmt.Sprintf("every %s of the region, in every VPC the account has", l.selects)
	if l.field == "amiSelectorTerms" {
		if owner, _ := term["owner"].(string); owner != "" {
			what = fmt.Sprintf("every AMI owned by %q", owner)
		} else {
			what = "every AMI the account may launch, public AMIs of any owner included"
		}
		what += ", and launches the newest that fits"
	}
	return findings.New(findings.SelectorSelectsEverything, at+".tags",
		fmt.Sprintf("This %s term's tags are empty and it sets nothing else that selects: the CRD accepts it (an empty map counts as set), "+
			"but Karpenter's AWS provider then passes no filter to EC2 and selects %s.", l.selects, what),
		fmt.Sprintf("give the term the tags that mark your %ss (e.g. karpenter.sh/discovery = <cluster name>) or an id", l.selects))
}
