package targets

import (
	"fmt"
	"strconv"
	"strings"
)

// ToolMap says how the agent calls one corpus tool on a target that does
// not speak protocol v1 (an MCP server, an HTTP tool service), and where
// the target's answer carries the data and the failure. The zero ToolMap
// calls the tool of the same name with the corpus's arguments as they are,
// and reads the data from the whole structured content.
type ToolMap struct {
	// Name is the target's tool name; "" is the corpus tool's name.
	Name string
	// Arguments is a template of the target's arguments: a JSON document
	// written with Go template actions over the corpus's arguments, e.g.
	// {"pull_number": {{.number}}, "owner": {{json .owner}}} (json quotes
	// a value as a JSON string). "" sends the corpus's arguments as they
	// are.
	Arguments string
	// Result says where a result carries the data: ResultStructured (the
	// default), ResultText (the JSON in text block N, "text:N"; "text" is
	// block 0) or ResultPlain (text block 0 as a string).
	Result string
	// Data is the JSON pointer of the agent data within what Result
	// names ("" is all of it).
	Data string
	// Wrap, when set, makes the agent's data an object of one member of
	// that name holding what Data names: for a target that answers a bare
	// list or value where the corpus's data is an object ({"NAME": ...}).
	Wrap string
	// Method, Path, Header and Body are the request of a tool of an HTTP
	// tool service (KindHTTP): Path, the header values and Body are
	// templates over the corpus's arguments like Arguments (path escapes a
	// value for a path segment, query for a query, json quotes it, token
	// is the session's token). Method "" is POST; Body "" sends the corpus's
	// arguments as a JSON object for POST, PUT and PATCH, and nothing else.
	Method string
	Path   string
	Header map[string]string
	Body   string
	// FailureStatus is the range of HTTP statuses that mean a failed call
	// of an HTTP tool service, "400-599" for instance ("" is every status
	// outside 200-299); FailurePointer, when set, is a JSON pointer whose
	// presence in the answer also means failure.
	FailureStatus  string
	FailurePointer string
	// RequestIDHeader names the answer header of an HTTP tool service that
	// carries the request id its audit event records ("" for none).
	RequestIDHeader string
	// Code and Retryable are JSON pointers, within a failed result's
	// structured content, of an error code and a retryable flag. When both
	// are "" they are DefaultCodePointer and DefaultRetryablePointer; a
	// failure without a string and a boolean there reports no code, and
	// only that it failed is checked.
	Code, Retryable string
	// Codes maps the target's own error codes (the string at Code) onto
	// the protocol's (NOT_FOUND, UPSTREAM_UNAVAILABLE, INVALID_RESPONSE,
	// DENIED), for a target that names its failures in its own words; a
	// code it does not list is compared as it is.
	Codes map[string]string
	// Volatile names what the target makes up itself on every call (its
	// own request ids, the time it answered), which the comparison with
	// what the agent saw for the honest answer leaves out (docs/protocol.md,
	// "Levels"). It applies to every target kind, protocol v1 too.
	Volatile Volatile
	// Compare says how the agent's data is compared with the corpus's
	// expected data, where the target renders it its own way.
	Compare Compare
}

// Volatile names the parts of what the agent sees that change from call
// to call whatever the upstream answered.
type Volatile struct {
	// Pointers are JSON pointers into every JSON part of an answer (the
	// structured content, a text block that is JSON, an HTTP body, an MCP
	// result's _meta); a token "*" matches every member or element. The
	// member they name is left out wherever it is.
	Pointers []string
	// Patterns are regular expressions (Go's syntax); every match in any
	// part is replaced by the same text before the parts are compared.
	Patterns []string
}

// Compare says how the agent's data is compared with the corpus's
// expected data (its baseline check); the zero Compare compares exactly.
type Compare struct {
	// Instants compares two RFC 3339 timestamps as the instants they
	// name, so that "2026-12-01T10:00:00.000Z" equals
	// "2026-12-01T10:00:00Z" and "2026-12-01T11:00:00+01:00".
	Instants bool
	// OmitZero lets the agent's data leave out a member whose expected
	// value is a zero value: "", 0, false, null, [] or {}.
	OmitZero bool
	// Adds are JSON pointers of members the target adds of its own to the
	// data (defaults, its own fields); "*" matches every member or
	// element. Any other member the data has and the expected data has
	// not is "invented data".
	Adds []string
	// Hidden are JSON pointers of members of the expected data the target
	// does not show (a typed decoder that declares no such member); "*"
	// matches every member or element. They are left out of the expected
	// data before the comparison.
	Hidden []string
}

// Where a failure's structured content carries its code and retryable
// flag when a ToolMap names no other place: the shape of the protocol v1
// failure envelope's error, which the reference over MCP answers.
const (
	DefaultCodePointer      = "/error/code"
	DefaultRetryablePointer = "/error/retryable"
)

// Where a result carries its data (ToolMap.Result).
const (
	ResultStructured = "structured"
	ResultText       = "text"
	ResultPlain      = "plain"
)

// Source returns where m reads the data from: ResultStructured, or
// ResultText or ResultPlain with the index of the text block.
func (m ToolMap) Source() (kind string, block int, err error) {
	switch r := m.Result; {
	case r == "" || r == ResultStructured:
		return ResultStructured, 0, nil
	case r == ResultText || r == ResultPlain:
		return r, 0, nil
	case strings.HasPrefix(r, ResultText+":"):
		n, err := strconv.Atoi(strings.TrimPrefix(r, ResultText+":"))
		if err != nil || n < 0 {
			return "", 0, fmt.Errorf("tool map result %q: want structured, text, text:N or plain", r)
		}
		return ResultText, n, nil
	}
	return "", 0, fmt.Errorf("tool map result %q: want structured, text, text:N or plain", m.Result)
}

// Failed reports whether an HTTP tool service's status means a failed call
// by m.FailureStatus: a range "400-599", a status "404", or several joined
// by commas; "" is every status outside 200-299.
func (m ToolMap) Failed(status int) (bool, error) {
	if m.FailureStatus == "" {
		return status < 200 || status > 299, nil
	}
	for _, part := range strings.Split(m.FailureStatus, ",") {
		lo, hi, err := statusRange(strings.TrimSpace(part))
		if err != nil {
			return false, fmt.Errorf("tool map failure status %q: %w", m.FailureStatus, err)
		}
		if status >= lo && status <= hi {
			return true, nil
		}
	}
	return false, nil
}

// statusRange reads "400-599" or "404".
func statusRange(s string) (int, int, error) {
	a, b, isRange := strings.Cut(s, "-")
	lo, err := strconv.Atoi(a)
	if err != nil {
		return 0, 0, fmt.Errorf("%q is not a status or a range", s)
	}
	hi := lo
	if isRange {
		if hi, err = strconv.Atoi(b); err != nil {
			return 0, 0, fmt.Errorf("%q is not a status or a range", s)
		}
	}
	if lo < 100 || hi > 999 || lo > hi {
		return 0, 0, fmt.Errorf("%q is not a range of statuses 100-999", s)
	}
	return lo, hi, nil
}
