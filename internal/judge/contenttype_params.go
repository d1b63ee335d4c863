package judge

import (
	"errors"
	"strconv"
	"strings"
	"unicode"
)

// The faults of a Content-Type value.
var (
	errMediaType      = errors.New("not a media type (type/subtype)")
	errParameter      = errors.New("malformed parameter")
	errRepeatedParam  = errors.New("parameter repeated with another value")
	errAfterMediaType = errors.New("unexpected text after the media subtype")
)

// parseMediaType splits a Content-Type value into its media type, in
// lower case, and its parameters by lower-case name (RFC 2045 grammar,
// RFC 2231 values).
func parseMediaType(v string) (string, map[string]string, error) {
	base, _, _ := strings.Cut(v, ";")
	mediaType := strings.TrimSpace(strings.ToLower(base))
	if err := checkMediaType(mediaType); err != nil {
		return "", nil, err
	}
	list, err := readParams(v[len(base):])
	if err != nil {
		return "", nil, err
	}
	params, err := effectiveParams(list)
	if err != nil {
		return "", nil, err
	}
	return mediaType, params, nil
}

// checkMediaType checks that mt is a token, optionally followed by '/'
// and a second token.
func checkMediaType(mt string) error {
	typ, rest := cutToken(mt)
	switch {
	case typ == "":
		return errMediaType
	case rest == "":
		return nil
	case rest[0] != '/':
		return errMediaType
	}
	subtype, rest := cutToken(rest[1:])
	switch {
	case subtype == "":
		return errMediaType
	case rest != "":
		return errAfterMediaType
	}
	return nil
}

// param is one parameter as written.
type param struct{ name, value string }

// readParams reads "; name=value" parameters up to the end of s; a final
// ";" alone is allowed.
func readParams(s string) ([]param, error) {
	var list []param
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" {
			return list, nil
		}
		p, rest, ok := readParam(s)
		if !ok {
			if strings.TrimSpace(s) == ";" {
				return list, nil
			}
			return nil, errParameter
		}
		list = append(list, p)
		s = rest
	}
}

// readParam reads "; name = value" at the start of s.
func readParam(s string) (param, string, bool) {
	s, ok := strings.CutPrefix(s, ";")
	if !ok {
		return param{}, "", false
	}
	name, s := cutToken(strings.TrimLeftFunc(s, unicode.IsSpace))
	if name == "" {
		return param{}, "", false
	}
	s, ok = strings.CutPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "=")
	if !ok {
		return param{}, "", false
	}
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	value, rest, ok := cutValue(s)
	if !ok {
		return param{}, "", false
	}
	return param{name: strings.ToLower(name), value: value}, rest, true
}

// cutValue reads a token or a quoted string at the start of s.
func cutValue(s string) (value, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		value, rest = cutToken(s)
		return value, rest, value != ""
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return b.String(), s[i+1:], true
		case c == '\\' && i+1 < len(s) && isTSpecial(s[i+1]):
			b.WriteByte(s[i+1]) // a backslash before anything else is itself
			i++
		case c == '\r' || c == '\n':
			return "", "", false
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false // no closing quote
}

// effectiveParams applies RFC 2231 to the parameters as written: a name
// with '*' is an extended or continued value of the name before the '*'.
func effectiveParams(list []param) (map[string]string, error) {
	plain := map[string]string{}
	extended := map[string]map[string]string{} // base name -> written name -> value
	for _, p := range list {
		target := plain
		if base, _, starred := strings.Cut(p.name, "*"); starred {
			if extended[base] == nil {
				extended[base] = map[string]string{}
			}
			target = extended[base]
		}
		if old, seen := target[p.name]; seen && old != p.value {
			return nil, errRepeatedParam
		}
		target[p.name] = p.value
	}
	for base, parts := range extended {
		if v, ok := joinExtended(base, parts); ok {
			plain[base] = v
		}
	}
	return plain, nil
}

// joinExtended returns the value of parameter base from its starred parts:
// base* alone (dropped when it does not decode), or base*0, base*1, ...
// (each possibly starred, that is encoded) up to the first missing.
func joinExtended(base string, parts map[string]string) (string, bool) {
	if v, ok := parts[base+"*"]; ok {
		return decodeExtended(v)
	}
	var b strings.Builder
	found := false
	for n := 0; ; n++ {
		name := base + "*" + strconv.Itoa(n)
		if v, ok := parts[name]; ok {
			found = true
			b.WriteString(v)
			continue
		}
		v, ok := parts[name+"*"]
		if !ok {
			return b.String(), found
		}
		found = true
		if n == 0 {
			v, ok = decodeExtended(v)
		} else {
			v, ok = percentDecode(v)
		}
		if ok {
			b.WriteString(v)
		}
	}
}

// decodeExtended decodes charset'language'percent-encoded text, for the
// charsets us-ascii and utf-8 only.
func decodeExtended(v string) (string, bool) {
	charset, rest, ok := strings.Cut(v, "'")
	if !ok {
		return "", false
	}
	_, encoded, ok := strings.Cut(rest, "'")
	if !ok {
		return "", false
	}
	if cs := strings.ToLower(charset); cs != "us-ascii" && cs != "utf-8" {
		return "", false
	}
	return percentDecode(encoded)
}

// percentDecode replaces every %XX by the byte it encodes.
func percentDecode(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		if i+2 >= len(s) {
			return "", false
		}
		hi, ok1 := hexValue(s[i+1])
		lo, ok2 := hexValue(s[i+2])
		if !ok1 || !ok2 {
			return "", false
		}
		b.WriteByte(hi<<4 | lo)
		i += 2
	}
	return b.String(), true
}

// cutToken splits s after its leading RFC 2045 token.
func cutToken(s string) (token, rest string) {
	i := 0
	for i < len(s) && isTokenByte(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// isTokenByte reports whether c may appear in an RFC 2045 token: a
// printable US-ASCII character other than a tspecial.
func isTokenByte(c byte) bool {
	return 0x20 < c && c < 0x7F && !isTSpecial(c)
}

// isTSpecial reports whether c is one of the RFC 2045 tspecials.
func isTSpecial(c byte) bool {
	return strings.IndexByte(`()<>@,;:\"/[]?=`, c) >= 0
}
