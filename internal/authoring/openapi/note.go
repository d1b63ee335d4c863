package openapi

import "fmt"

// Note is something of the description that could not be carried over
// faithfully. Pointer is an RFC 6901 JSON pointer into the description
// ("/paths/~1pets/get/responses/200/content/application~1json/schema"),
// or, for a file a $ref reached, that file's path relative to the base
// folder, "#" and a pointer into it ("schemas/pet.yaml#/Pet/properties/x").
type Note struct {
	Pointer string
	Message string
}

// noteSet collects Notes once each, in the order first met: a schema
// inlined at several places is read several times.
type noteSet struct {
	list []Note
	seen map[Note]bool
}

// add records a note at l.
func (s *noteSet) add(l loc, format string, args ...any) {
	n := Note{Pointer: l.String(), Message: fmt.Sprintf(format, args...)}
	if s.seen == nil {
		s.seen = map[Note]bool{}
	}
	if !s.seen[n] {
		s.seen[n] = true
		s.list = append(s.list, n)
	}
}
