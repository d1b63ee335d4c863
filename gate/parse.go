package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcert/toolcert/protocol"
)

// ParseJSON parses raw strictly as one JSON document and returns its value
// tree: map[string]any, []any, string, json.Number, bool or nil.
//
// It rejects, with a *Rejection of gate parse: a byte order mark ("bom"),
// invalid UTF-8 ("invalid_utf8"), a lone or unpaired surrogate escape
// ("invalid_surrogate"), a member name that repeats another, also when
// spelled with escapes ("duplicate_name"), NaN, Infinity or a number too large
// for a float64 ("nonfinite_number"), a document that ends early
// ("truncated", also for an empty body), anything but white space after the
// first value ("trailing_data"), objects and arrays nested deeper than
// lim.MaxDepth ("depth_limit", checked while reading) and every other
// grammar error ("syntax"). The byte limit is enforced when reading (see
// [ReadLimited]), not here.
func ParseJSON(raw []byte, lim Limits) (any, error) {
	lim = lim.withDefaults()
	if bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")) {
		return nil, Reject(protocol.GateParse, protocol.ReasonBOM, "document starts with a UTF-8 byte order mark")
	}
	p := &parser{raw: raw, dec: jsontext.NewDecoder(bytes.NewReader(raw)), maxDepth: lim.MaxDepth}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.ReadToken(); err != io.EOF {
		return nil, Reject(protocol.GateParse, protocol.ReasonTrailingData, "data after the document at offset %d", p.dec.InputOffset())
	}
	return v, nil
}

// parser builds the value tree from jsontext tokens.
type parser struct {
	raw      []byte
	dec      *jsontext.Decoder
	maxDepth int
	depth    int
}

// value reads the next whole value.
func (p *parser) value() (any, error) {
	tok, err := p.dec.ReadToken()
	if err != nil {
		return nil, p.classify(err)
	}
	switch tok.Kind() {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		return tok.String(), nil
	case '0':
		return p.number(tok.String())
	case 't', 'f':
		return tok.Bool(), nil
	case 'n':
		return nil, nil
	default:
		return nil, Reject(protocol.GateParse, protocol.ReasonSyntax, "unexpected token %s", tok.Kind())
	}
}

// enter counts one more level of nesting and enforces the depth limit.
func (p *parser) enter() error {
	p.depth++
	if p.depth > p.maxDepth {
		return Reject(protocol.GateParse, protocol.ReasonDepthLimit, "nesting deeper than %d at offset %d", p.maxDepth, p.dec.InputOffset())
	}
	return nil
}

// object reads the members of an object whose '{' was read.
func (p *parser) object() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	obj := map[string]any{}
	for p.dec.PeekKind() != '}' {
		tok, err := p.dec.ReadToken()
		if err != nil {
			return nil, p.classify(err)
		}
		name := tok.String()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		obj[name] = v
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, p.classify(err)
	}
	p.depth--
	return obj, nil
}

// array reads the elements of an array whose '[' was read.
func (p *parser) array() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	arr := []any{}
	for p.dec.PeekKind() != ']' {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return nil, p.classify(err)
	}
	p.depth--
	return arr, nil
}

// number keeps the literal as a json.Number and rejects one that does not
// fit a finite float64.
func (p *parser) number(lit string) (any, error) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, Reject(protocol.GateParse, protocol.ReasonSyntax, "number %.40q: %w", lit, err)
	}
	if math.IsInf(f, 0) {
		return nil, Reject(protocol.GateParse, protocol.ReasonNonfinite, "number %.40q does not fit a float64", lit)
	}
	return json.Number(lit), nil
}
