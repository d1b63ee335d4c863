package openapi

import (
	"regexp"
	"slices"
)

// templateVar matches one {name} of a path template.
var templateVar = regexp.MustCompile(`\{([^{}/]+)\}`)

// checkTemplate notes a {name} of the path template that no path
// parameter declares, and a path parameter the template does not name.
func (b *builder) checkTemplate(e entry, params []Parameter) {
	var declared []string
	for _, p := range params {
		if p.In == "path" {
			declared = append(declared, p.Name)
		}
	}
	var named []string
	for _, m := range templateVar.FindAllStringSubmatch(e.path, -1) {
		named = append(named, m[1])
		if !slices.Contains(declared, m[1]) {
			b.notes.add(e.op, "the path names {%s}, which no path parameter declares", m[1])
		}
	}
	for _, name := range declared {
		if !slices.Contains(named, name) {
			b.notes.add(e.op, "path parameter %s is not in the path", name)
		}
	}
}
