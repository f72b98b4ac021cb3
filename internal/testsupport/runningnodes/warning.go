package runningnodes

import (
	"regexp"
	"strings"
)

// DriftWarning matches the KRP422 warning on attribute with message in Terraform's output,
// however the output wraps its words. Strict mode makes the warning an error, which is how a
// plan step sees it.
func DriftWarning(attribute, message string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)KRP422.*Attribute ` + regexp.QuoteMeta(attribute) + `:\s+` + Words(message))
}

// Words matches the words of text however the output wraps them.
func Words(text string) string {
	return strings.Join(strings.Fields(regexp.QuoteMeta(text)), `\s+`)
}
