package scaffold

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// projection is what the agent keeps of a success: each field of its data
// and the pointer it comes from, and, when a list is kept element by
// element, the list and what each element keeps.
type projection struct {
	fields []field
	// list is the pointer of the list kept element by element ("" with
	// listKept false: none); tails are the pointers, within one element,
	// of what each element keeps.
	list     []string
	listKept bool
	tails    [][]string
}

// field is one member of the agent's data.
type field struct {
	name    string
	pointer []string
}

// planKeep reads the owner's keep pointers. A pointer without "*" is a
// field of its own, named by its tokens joined with "_" (dataName for the
// whole answer). Pointers with "*" keep, of each element of one list,
// what follows the "*": the list is one field (named as its pointer, or
// dataName), and the list's element schema is narrowed to it, since the
// corpus projects no element of a list.
func planKeep(keep []string, dataName string) (*projection, error) {
	if len(keep) == 0 {
		return nil, errors.New("no member kept: name the members of a success the agent keeps (--keep)")
	}
	p := &projection{}
	for _, k := range keep {
		toks, err := splitPointer(k)
		if err != nil {
			return nil, fmt.Errorf("keep %s", err)
		}
		star := slices.Index(toks, "*")
		if star < 0 {
			p.fields = append(p.fields, field{name: fieldName(toks, dataName), pointer: toks})
			continue
		}
		if err := p.addTail(toks[:star], toks[star+1:], k); err != nil {
			return nil, err
		}
	}
	if p.listKept {
		p.fields = append(p.fields, field{name: fieldName(p.list, dataName), pointer: p.list})
	}
	return p, p.check()
}

// addTail adds what one element of the list at list keeps.
func (p *projection) addTail(list, tail []string, keep string) error {
	switch {
	case slices.Contains(tail, "*"):
		return fmt.Errorf("keep %s: one \"*\" only: the corpus narrows one list, not lists inside it", keep)
	case p.listKept && !slices.Equal(p.list, list):
		return fmt.Errorf("keep %s: every \"*\" must be the same list (%s): the corpus narrows one list", keep, joinPointer(p.list)+"/*")
	}
	p.list, p.listKept = list, true
	p.tails = append(p.tails, tail)
	return nil
}

// check refuses two fields of one name, and a field inside the list that
// is kept element by element.
func (p *projection) check() error {
	seen := map[string]string{}
	for _, f := range p.fields {
		ptr := joinPointer(f.pointer)
		if other, dup := seen[f.name]; dup {
			return fmt.Errorf("keep %s and %s: both would be the agent's field %q", other, ptr, f.name)
		}
		seen[f.name] = ptr
		if p.listKept && !slices.Equal(f.pointer, p.list) && isPrefix(p.list, f.pointer) {
			return fmt.Errorf("keep %s: inside the list %s, which is kept element by element", ptr, joinPointer(p.list))
		}
	}
	return nil
}

// kept reports whether the member at toks of the answer reaches the
// agent: it is, or is inside, a kept field.
func (p *projection) kept(toks []string) bool {
	for _, f := range p.fields {
		if isPrefix(f.pointer, toks) {
			return true
		}
	}
	return false
}

// isPrefix reports whether pre is a prefix of toks.
func isPrefix(pre, toks []string) bool {
	return len(pre) <= len(toks) && slices.Equal(pre, toks[:len(pre)])
}

// nameChars are what an agent field's name is made of.
var nameChars = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// FieldName names the agent's field that keeps the member at pointer toks
// of an answer, as the writer names it: its tokens joined with "_", each
// cleaned to letters, digits and "_".
func FieldName(toks []string) string { return fieldName(toks, "") }

// fieldName names the field of pointer toks: its tokens joined with "_",
// each cleaned to letters, digits and "_"; dataName for the whole answer.
func fieldName(toks []string, dataName string) string {
	if len(toks) == 0 {
		return dataName
	}
	parts := make([]string, len(toks))
	for i, t := range toks {
		parts[i] = strings.Trim(nameChars.ReplaceAllString(t, "_"), "_")
	}
	return strings.Join(parts, "_")
}
