package judge

import (
	"bytes"

	"github.com/toolcert/toolcert/protocol"
)

// Limits bounds what the judge accepts from an upstream. A zero or negative
// field means its default from package protocol.
type Limits struct {
	// MaxBytes is the byte limit on one upstream body
	// (protocol.DefaultMaxBytes). ParseJSON does not enforce it: the body
	// is bounded where it is read.
	MaxBytes int64
	// MaxDepth is the nesting limit of a JSON document
	// (protocol.DefaultMaxDepth): a document whose objects and arrays nest
	// MaxDepth levels deep is accepted, one level more is rejected.
	MaxDepth int
}

// depth returns MaxDepth, or its default.
func (l Limits) depth() int {
	if l.MaxDepth <= 0 {
		return protocol.DefaultMaxDepth
	}
	return l.MaxDepth
}

// utf8BOM is the byte order mark a document must not start with.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ParseJSON parses raw strictly as one JSON document (RFC 8259) and returns
// its value tree: map[string]any, []any, string, json.Number (the literal as
// written), bool or nil.
//
// Every fault is a *Rejection at gate parse: a leading byte order mark
// (bom), invalid UTF-8 (invalid_utf8), an escaped surrogate that is not
// half of a pair (invalid_surrogate), a member name equal to an earlier one
// of the same object once unescaped (duplicate_name), NaN or Infinity, or a
// number beyond the range of a float64 (nonfinite_number), a document that
// ends early or an empty one (truncated), anything but white space after
// the value (trailing_data), nesting deeper than lim.MaxDepth, found while
// reading (depth_limit), and any other grammar error (syntax). When a
// document has several faults, the one reported is the first met reading
// left to right. The byte limit is not checked here.
func ParseJSON(raw []byte, lim Limits) (any, error) {
	if bytes.HasPrefix(raw, utf8BOM) {
		return nil, Reject(protocol.GateParse, protocol.ReasonBOM, "document starts with a UTF-8 byte order mark")
	}
	d := &document{raw: raw, maxDepth: lim.depth()}
	v, err := d.value()
	if err != nil {
		return nil, err
	}
	if d.skipSpace(); d.pos < len(d.raw) {
		return nil, d.fail(protocol.ReasonTrailingData, d.pos, "data after the document")
	}
	return v, nil
}

// document is one JSON text being read, left to right.
type document struct {
	raw      []byte
	pos      int // offset of the next unread byte
	depth    int // objects and arrays open at pos
	maxDepth int
}

// value reads one whole value, after optional white space.
func (d *document) value() (any, error) {
	d.skipSpace()
	if d.pos == len(d.raw) {
		return nil, d.truncated()
	}
	switch c := d.raw[d.pos]; {
	case c == '{':
		return d.object()
	case c == '[':
		return d.array()
	case c == '"':
		return d.str()
	case c == 't' || c == 'f' || c == 'n':
		return d.literal()
	case c == '-' || isDigit(c):
		return d.number()
	}
	return nil, d.unexpected(d.pos, "at the start of a value")
}

// array reads an array; pos is at its '['.
func (d *document) array() (any, error) {
	if err := d.open(); err != nil {
		return nil, err
	}
	items := []any{}
	if d.skipSpace(); d.peek() == ']' {
		d.close()
		return items, nil
	}
	for {
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		items = append(items, v)
		more, err := d.separator(']', "after an array element")
		if err != nil {
			return nil, err
		}
		if !more {
			return items, nil
		}
	}
}

// object reads an object; pos is at its '{'.
func (d *document) object() (any, error) {
	if err := d.open(); err != nil {
		return nil, err
	}
	members := map[string]any{}
	if d.skipSpace(); d.peek() == '}' {
		d.close()
		return members, nil
	}
	for {
		name, err := d.name(members)
		if err != nil {
			return nil, err
		}
		if err := d.colon(); err != nil {
			return nil, err
		}
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		members[name] = v
		more, err := d.separator('}', "after an object member")
		if err != nil {
			return nil, err
		}
		if !more {
			return members, nil
		}
	}
}

// name reads a member name and rejects one already in members.
func (d *document) name(members map[string]any) (string, error) {
	d.skipSpace()
	if d.pos == len(d.raw) {
		return "", d.truncated()
	}
	start := d.pos
	if d.raw[start] != '"' {
		return "", d.notName()
	}
	name, err := d.str()
	if err != nil {
		return "", err
	}
	if _, seen := members[name]; seen {
		return "", d.fail(protocol.ReasonDuplicateName, start, "member name %.80q repeats an earlier one", name)
	}
	return name, nil
}

// colon reads the ':' after a member name.
func (d *document) colon() error {
	d.skipSpace()
	switch {
	case d.pos == len(d.raw):
		return d.truncated()
	case d.raw[d.pos] == ':':
		d.pos++
		return nil
	}
	return d.unexpected(d.pos, "after a member name (want ':')")
}

// separator reads what follows a value inside an array or object: ','
// (more reports true) or the closing byte end (more reports false, the
// container is closed).
func (d *document) separator(end byte, where string) (more bool, err error) {
	d.skipSpace()
	switch {
	case d.pos == len(d.raw):
		return false, d.truncated()
	case d.raw[d.pos] == ',':
		d.pos++
		return true, nil
	case d.raw[d.pos] == end:
		d.close()
		return false, nil
	}
	return false, d.unexpected(d.pos, where)
}

// open enters the object or array whose first byte is at pos, enforcing
// the nesting limits.
func (d *document) open() error {
	level := d.depth + 1
	if level > decoderNestingCap {
		return d.fail(protocol.ReasonSyntax, d.pos, "nesting deeper than %d levels", decoderNestingCap)
	}
	if level > d.maxDepth {
		return d.fail(protocol.ReasonDepthLimit, d.pos, "nesting deeper than the limit of %d", d.maxDepth)
	}
	d.depth = level
	d.pos++
	return nil
}

// close leaves the object or array whose last byte is at pos.
func (d *document) close() {
	d.depth--
	d.pos++
}

// literal reads true, false or null.
func (d *document) literal() (any, error) {
	text, v := literalOf(d.raw[d.pos])
	for i := range len(text) {
		at := d.pos + i
		if at == len(d.raw) {
			return nil, d.truncated()
		}
		if d.raw[at] != text[i] {
			return nil, d.unexpected(at, "in literal "+text)
		}
	}
	d.pos += len(text)
	return v, nil
}

// literalOf returns the literal that starts with c ('t', 'f' or 'n') and
// its value.
func literalOf(c byte) (string, any) {
	switch c {
	case 't':
		return "true", true
	case 'f':
		return "false", false
	}
	return "null", nil
}

// skipSpace moves pos past the four white space bytes of RFC 8259.
func (d *document) skipSpace() {
	for d.pos < len(d.raw) {
		switch d.raw[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

// peek returns the byte at pos, or 0 at the end.
func (d *document) peek() byte {
	if d.pos < len(d.raw) {
		return d.raw[d.pos]
	}
	return 0
}

// isDigit reports whether c is an ASCII decimal digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
