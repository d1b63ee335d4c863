package record

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// kind is a JSON type other than null; integers and other numbers are
// one kind, told apart by numberShape.
type kind int

const (
	kindObject kind = iota
	kindArray
	kindString
	kindNumber
	kindBoolean
)

// kindNames names each kind as a schema's "type" does.
var kindNames = [...]string{"object", "array", "string", "number", "boolean"}

// shape gathers what the answers had at one place of the document.
type shape struct {
	count int    // values seen here, null included
	nulls int    // of which null
	kinds []kind // the other types seen, in first-seen order
	bools int
	num   numberShape
	str   stringShape
	obj   objectShape
	arr   arrayShape
}

// observe adds v, a value of answer number answer, to s.
func (s *shape) observe(v any, answer int) {
	s.count++
	switch x := v.(type) {
	case nil:
		s.nulls++
	case bool:
		s.see(kindBoolean)
		s.bools++
	case json.Number:
		s.see(kindNumber)
		s.num.observe(x)
	case string:
		s.see(kindString)
		s.str.observe(x, answer)
	case []member:
		s.see(kindObject)
		s.obj.observe(x, answer)
	case []any:
		s.see(kindArray)
		s.arr.observe(x, answer)
	}
}

// see notes that a value of kind k was seen.
func (s *shape) see(k kind) {
	for _, seen := range s.kinds {
		if seen == k {
			return
		}
	}
	s.kinds = append(s.kinds, k)
}

// seen returns how many values of kind k were seen.
func (s *shape) seen(k kind) int {
	switch k {
	case kindObject:
		return s.obj.count
	case kindArray:
		return s.arr.count
	case kindString:
		return s.str.count
	case kindNumber:
		return s.num.count
	}
	return s.bools
}

// numberShape gathers the numbers seen at one place.
type numberShape struct {
	count      int
	fractional int // with a fraction or an exponent
}

// observe adds the number literal n.
func (n *numberShape) observe(lit json.Number) {
	n.count++
	if strings.ContainsAny(string(lit), ".eE") {
		n.fractional++
	}
}

// enumLimit is the most distinct values an enum may have.
const enumLimit = 8

// stringShape gathers the strings seen at one place.
type stringShape struct {
	count    int
	answers  seenIn             // the answers with a string here
	values   map[string]*seenIn // per distinct value, the answers it was in
	order    []string           // the distinct values, first seen first
	overflow bool               // more than enumLimit distinct values
	longest  int                // in characters (code points)
	formats  formatSet
}

// seenIn counts the distinct answers something was seen in, the answers
// coming in order.
type seenIn struct{ n, last int }

// add counts answer number answer, unless it was the last counted.
func (s *seenIn) add(answer int) {
	if s.n == 0 || s.last != answer {
		s.n, s.last = s.n+1, answer
	}
}

// observe adds v, a string of answer number answer.
func (s *stringShape) observe(v string, answer int) {
	if s.count == 0 {
		s.formats = allFormats
	}
	s.count++
	s.answers.add(answer)
	s.longest = max(s.longest, utf8.RuneCountInString(v))
	s.formats &= formatsOf(v)
	s.tally(v, answer)
}

// tally counts the answers v was in, until there are too many distinct
// values for an enum.
func (s *stringShape) tally(v string, answer int) {
	if s.overflow {
		return
	}
	if s.values == nil {
		s.values = map[string]*seenIn{}
	}
	seen, ok := s.values[v]
	if !ok {
		if len(s.order) == enumLimit {
			s.overflow, s.values, s.order = true, nil, nil
			return
		}
		seen = &seenIn{}
		s.values[v] = seen
		s.order = append(s.order, v)
	}
	seen.add(answer)
}

// objectShape gathers the objects seen at one place.
type objectShape struct {
	count   int
	names   []string // member names, first seen first
	members map[string]*shape
	present map[string]int // objects that had each member
}

// observe adds the object ms of answer number answer.
func (o *objectShape) observe(ms []member, answer int) {
	if o.members == nil {
		o.members, o.present = map[string]*shape{}, map[string]int{}
	}
	o.count++
	for _, m := range ms {
		sh, ok := o.members[m.name]
		if !ok {
			sh = &shape{}
			o.members[m.name] = sh
			o.names = append(o.names, m.name)
		}
		o.present[m.name]++
		sh.observe(m.value, answer)
	}
}

// arrayShape gathers the arrays seen at one place.
type arrayShape struct {
	count   int
	longest int
	items   *shape // every element of every array; nil when all were empty
}

// observe adds the array elems of answer number answer.
func (a *arrayShape) observe(elems []any, answer int) {
	a.count++
	a.longest = max(a.longest, len(elems))
	for _, e := range elems {
		if a.items == nil {
			a.items = &shape{}
		}
		a.items.observe(e, answer)
	}
}
