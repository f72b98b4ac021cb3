package analysis

import "fmt"

func requirementPath(i int, field string) string {
	p := fmt.Sprintf("spec.template.spec.requirements[%d]", i)
	if field != "" {
		p += "." + field
	}
	return p
}
