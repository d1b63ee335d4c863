package judge

import (
	"bytes"
	"regexp"
	"unicode/utf8"

	"github.com/toolcert/toolcert/protocol"
)

// KeySpec is one line of a key=value text document: the key, and the
// pattern its value must match (Pattern.Match, so anchor it with ^ and $).
// A nil Pattern accepts any value without control characters.
type KeySpec struct {
	Name    string
	Pattern *regexp.Regexp
}

// ParseKeyValues reads raw as exactly the lines "name=value\n" of keys, in
// that order, and returns the values by name. Every deviation is a
// *Rejection at gate parse, reason text_format: a byte order mark, invalid
// UTF-8, a carriage return anywhere, no newline after the last line, a
// blank, extra, missing, reordered, repeated or unknown line, a value that
// does not match its pattern or holds a C0 or C1 control character or DEL.
// The name is what precedes a line's first '='.
func ParseKeyValues(raw []byte, keys []KeySpec) (map[string]string, error) {
	if err := textShape(raw); err != nil {
		return nil, err
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	lines = lines[:len(lines)-1] // SplitAfter leaves "" after the last newline
	if len(lines) != len(keys) {
		return nil, textFormat("%d lines, want %d", len(lines), len(keys))
	}
	values := make(map[string]string, len(keys))
	for i, key := range keys {
		v, err := key.read(bytes.TrimSuffix(lines[i], []byte("\n")))
		if err != nil {
			return nil, textFormat("line %d: %w", i+1, err)
		}
		values[key.Name] = v
	}
	return values, nil
}

// textShape checks what holds for a whole key=value document: UTF-8
// without a byte order mark, no carriage return, a newline at the end.
func textShape(raw []byte) error {
	switch {
	case bytes.HasPrefix(raw, utf8BOM):
		return textFormat("document starts with a byte order mark")
	case !validUTF8(raw):
		return textFormat("invalid UTF-8")
	case bytes.IndexByte(raw, '\r') >= 0:
		return textFormat("carriage return")
	case len(raw) == 0 || raw[len(raw)-1] != '\n':
		return textFormat("no newline after the last line")
	}
	return nil
}

// read checks one line (without its newline) against k and returns the
// value.
func (k KeySpec) read(line []byte) (string, error) {
	eq := bytes.IndexByte(line, '=')
	if eq < 0 {
		return "", textError("no '=' in the line")
	}
	name, value := line[:eq], line[eq+1:]
	switch {
	case string(name) != k.Name:
		return "", textError("the key is not " + k.Name)
	case hasControl(value):
		return "", textError("a control character in the value of " + k.Name)
	case k.Pattern != nil && !k.Pattern.Match(value):
		return "", textError("the value of " + k.Name + " does not match " + k.Pattern.String())
	}
	return string(value), nil
}

// hasControl reports whether b, valid UTF-8, holds a C0 control
// (U+0000-U+001F), DEL (U+007F) or a C1 control (U+0080-U+009F).
func hasControl(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r < 0x20 || (0x7F <= r && r <= 0x9F) {
			return true
		}
		b = b[n:]
	}
	return false
}

// textFormat returns a text_format rejection.
func textFormat(format string, args ...any) *Rejection {
	return Reject(protocol.GateParse, protocol.ReasonTextFormat, format, args...)
}

// textError is the detail of one bad line.
type textError string

// Error returns the detail.
func (e textError) Error() string { return string(e) }
