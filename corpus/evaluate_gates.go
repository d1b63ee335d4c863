package corpus

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// decode checks the content type and parses the body: strict JSON, or the
// tool's key=value lines as an object of strings.
func (p *plan) decode(a Answer, lim Limits) (any, error) {
	h := http.Header{}
	if a.ContentType != "" {
		h.Set("Content-Type", a.ContentType)
	}
	if err := judge.CheckContentType(h, p.tool.ContentType); err != nil {
		return nil, err
	}
	if p.tool.Format == FormatJSON {
		return judge.ParseJSON(a.Body, judge.Limits{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth})
	}
	kv, err := judge.ParseKeyValues(a.Body, p.keys)
	if err != nil {
		return nil, err
	}
	doc := make(map[string]any, len(kv))
	for k, v := range kv {
		doc[k] = v
	}
	return doc, nil
}

// bind checks that every bound field is the string its argument holds.
func (p *plan) bind(doc any, args map[string]string) error {
	for _, ptr := range slices.Sorted(maps.Keys(p.version.Bind)) {
		got, _ := judge.Lookup(doc, ptr)
		if err := judge.Equal(ptr, got, args[p.version.Bind[ptr]]); err != nil {
			return err
		}
	}
	return nil
}

// fresh checks every fresh timestamp against the window and skew.
func (p *plan) fresh(doc any, now time.Time, lim Limits) error {
	for _, ptr := range p.version.Fresh {
		got, _ := judge.Lookup(doc, ptr)
		s, _ := got.(string) // a missing or non-string timestamp is bad_timestamp
		if err := judge.Fresh(s, now, lim.Freshness, lim.Skew); err != nil {
			if r, ok := judge.AsRejection(err); ok {
				return judge.Reject(r.Gate, r.Reason, "%s: %w", ptr, r.Err)
			}
			return err
		}
	}
	return nil
}

// project builds a new object holding only the agent's fields, each from
// its pointer (a field written as a pointer nested at it); a pointer that
// names nothing is a schema_violation, but for an optional field, which
// is then left out.
func (p *plan) project(doc any) (map[string]any, error) {
	data := make(map[string]any, len(p.version.Project))
	for _, field := range slices.Sorted(maps.Keys(p.version.Project)) {
		ptr := p.version.Project[field]
		v, ok := judge.Lookup(doc, ptr)
		switch {
		case !ok && slices.Contains(p.version.Optional, field):
			continue
		case !ok:
			return nil, judge.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "project %s: %s names nothing in the answer", field, ptr)
		}
		if slices.Contains(p.version.Integers, field) {
			var err error
			if v, err = integer(field, v); err != nil {
				return nil, err
			}
		}
		if err := setField(data, field, v); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// setField sets field of data to v: a plain name at the top, a pointer at
// its place, inside the objects it names (made when missing).
func setField(data map[string]any, field string, v any) error {
	if !strings.HasPrefix(field, "/") {
		data[field] = v
		return nil
	}
	toks := judge.PointerTokens(field)
	obj := data
	for _, tok := range toks[:len(toks)-1] {
		next, ok := obj[tok].(map[string]any)
		if !ok {
			if _, taken := obj[tok]; taken {
				return fmt.Errorf("project %s: %s is already another field's value", field, tok)
			}
			next = map[string]any{}
			obj[tok] = next
		}
		obj = next
	}
	obj[toks[len(toks)-1]] = v
	return nil
}

// integer turns the text (or number) v into an integer json.Number.
func integer(field string, v any) (any, error) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = string(x)
	default:
		return nil, judge.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "project %s: %T is not an integer", field, v)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return nil, judge.Reject(protocol.GateSchema, protocol.ReasonSchemaViolation, "project %s: %.40q: %w", field, s, err)
	}
	return json.Number(strconv.FormatInt(n, 10)), nil
}

// satisfies checks the success envelope holding data against the agent
// contract.
func (p *plan) satisfies(data map[string]any) error {
	return p.contract.schema.Validate(successEnvelope(p.tool.Name, data))
}

// successEnvelope returns the success envelope of tool holding data, as a
// value tree.
func successEnvelope(tool string, data map[string]any) map[string]any {
	return map[string]any{
		"tool":       tool,
		"request_id": oracleRequestID,
		"outcome":    protocol.OutcomeSuccess,
		"data":       data,
	}
}
