// Command docgen writes the findings guide, templates/guides/findings.md.tmpl, from the code
// registry (internal/findings). It is a tool, outside the layers. Each code gets a section
// with its severity, title, help text, where it is reported and how to silence it.
// tfplugindocs then renders the template to docs/guides/findings.md like every other guide. A
// test fails when the committed template is not what this command writes, so a new or changed
// code cannot leave the guide behind.
//
//	go generate ./internal/findings/docgen   (or make generate)
package main
