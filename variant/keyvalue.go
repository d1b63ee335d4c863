package variant

import (
	"github.com/toolcert/toolcert/internal/judge"

	"bytes"
	"errors"
	"fmt"
	"strings"
)

// kvDoc is a key_value document: "key=value" lines, each ending in "\n".
// Operators change lines and write the document back; a line without '='
// is kept whole in key (value "", noEq true).
type kvDoc struct {
	lines []kvLine
	eol   string // the line end written ("\n" unless an operator changes it)
	final bool   // whether the last line ends with eol
}

// kvLine is one line.
type kvLine struct {
	key, value string
	noEq       bool
}

// errKeyValue is returned, wrapped, when an accepted key_value example is
// not "key=value" lines.
var errKeyValue = errors.New("template is not key=value lines")

// parseKV reads an accepted key_value template.
func parseKV(raw []byte) (*kvDoc, error) {
	if !bytes.HasSuffix(raw, []byte("\n")) {
		return nil, fmt.Errorf("%w: no final newline", errKeyValue)
	}
	d := &kvDoc{eol: "\n", final: true}
	for i, line := range strings.Split(string(raw[:len(raw)-1]), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("%w: line %d has no '='", errKeyValue, i+1)
		}
		d.lines = append(d.lines, kvLine{key: k, value: v})
	}
	return d, nil
}

// encode writes the document.
func (d *kvDoc) encode() []byte {
	var b bytes.Buffer
	for i, l := range d.lines {
		b.WriteString(l.key)
		if !l.noEq {
			b.WriteString("=" + l.value)
		}
		if i < len(d.lines)-1 || d.final {
			b.WriteString(d.eol)
		}
	}
	return b.Bytes()
}

// clone returns a copy.
func (d *kvDoc) clone() *kvDoc {
	c := *d
	c.lines = append([]kvLine(nil), d.lines...)
	return &c
}

// index returns the position of the line with key, or -1.
func (d *kvDoc) index(key string) int {
	for i, l := range d.lines {
		if l.key == key && !l.noEq {
			return i
		}
	}
	return -1
}

// hasCanary reports whether a line other than avoid's holds a canary.
func (d *kvDoc) hasCanary(avoid string) bool {
	for _, l := range d.lines {
		if l.key != avoid && strings.Contains(l.key+l.value, canaryOpen) {
			return true
		}
	}
	return false
}

// keys returns the example's keys in line order.
func (x *example) keys() []string {
	var out []string
	for _, l := range x.kv.lines {
		out = append(out, l.key)
	}
	return out
}

// markedKV returns a copy of the document with a canary on a line other
// than avoid's, where it changes nothing the schema, a binding or a
// freshness check reads; when there is no such line, the copy has none.
func (x *example) markedKV(avoid string) *kvDoc {
	d := x.kv.clone()
	if d.hasCanary(avoid) {
		return d
	}
	for i, l := range d.lines {
		ptr := "/" + judge.EscapePointerToken(l.key)
		_, isBound := x.bound(ptr)
		if l.key == avoid || isBound || x.fresh(ptr) {
			continue
		}
		if x.schema.at(ptr).judge(quote(l.value+markText)) == accepts {
			d.lines[i].value += markText
			return d
		}
	}
	return d
}

// markedEarlyKV returns a copy of the document with a canary on the first
// line other than avoid's, whatever it means: only for variants refused
// before the values are read.
func (x *example) markedEarlyKV(avoid string) *kvDoc {
	d := x.kv.clone()
	if d.hasCanary(avoid) {
		return d
	}
	for i, l := range d.lines {
		if l.key != avoid {
			d.lines[i].value += markText
			return d
		}
	}
	return d
}

// kvDraft is a draft of a key_value document.
func kvDraft(field, tag, note string, d *kvDoc, e Expect) draft {
	return draft{field: field, tag: tag, note: note, body: d.encode(), expect: e}
}
