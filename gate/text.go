package gate

import (
	"bytes"
	"regexp"
	"unicode/utf8"

	"github.com/toolcert/toolcert/protocol"
)

// KeySpec is one line of a key=value text document: the key and the pattern
// its value must match in full (anchor the pattern with ^ and $). A nil
// Pattern accepts any value without control characters.
type KeySpec struct {
	Name    string
	Pattern *regexp.Regexp
}

// ParseKeyValues parses raw as exactly the lines "name=value\n" of keys, in
// that order, and returns the values by name. Every deviation is a
// *Rejection{protocol.GateParse, "text_format"}: invalid UTF-8, a carriage return, a
// missing final newline, a blank, extra, missing or reordered line, a
// repeated or unknown key, a value that does not match its pattern or holds
// a control character.
func ParseKeyValues(raw []byte, keys []KeySpec) (map[string]string, error) {
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		return nil, textFormat("document starts with a byte order mark")
	}
	if !utf8.Valid(raw) {
		return nil, textFormat("invalid UTF-8")
	}
	if bytes.IndexByte(raw, '\r') >= 0 {
		return nil, textFormat("carriage return")
	}
	if len(raw) == 0 || raw[len(raw)-1] != '\n' {
		return nil, textFormat("last line not terminated by a newline")
	}
	lines := bytes.Split(raw[:len(raw)-1], []byte("\n"))
	if len(lines) != len(keys) {
		return nil, textFormat("%d lines, want %d", len(lines), len(keys))
	}
	out := make(map[string]string, len(keys))
	for i, spec := range keys {
		v, err := keyValue(lines[i], spec)
		if err != nil {
			return nil, textFormat("line %d: %w", i+1, err)
		}
		out[spec.Name] = v
	}
	return out, nil
}

// keyValue checks one line against its spec and returns the value.
func keyValue(line []byte, spec KeySpec) (string, error) {
	name, value, ok := bytes.Cut(line, []byte("="))
	switch {
	case !ok:
		return "", errorString("no '=' in line")
	case string(name) != spec.Name:
		return "", errorString("key is not " + spec.Name)
	case bytes.ContainsFunc(value, isControl):
		return "", errorString("control character in the value of " + spec.Name)
	case spec.Pattern != nil && !spec.Pattern.Match(value):
		return "", errorString("value of " + spec.Name + " does not match " + spec.Pattern.String())
	}
	return string(value), nil
}

// isControl reports whether r is a C0 or C1 control character or DEL.
func isControl(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r < 0xa0)
}

// textFormat returns a text_format rejection.
func textFormat(format string, args ...any) *Rejection {
	return Reject(protocol.GateParse, protocol.ReasonTextFormat, format, args...)
}

// errorString is a constant error text.
type errorString string

// Error returns the text.
func (e errorString) Error() string { return string(e) }
