package mutant

import (
	"bytes"
	"encoding/json"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// parseLastWins is gate.ParseJSON without the duplicate-name check: a
// document whose only fault is a repeated member name is decoded with
// encoding/json, where the last value wins. Every other check (BOM,
// UTF-8, surrogates, NaN, trailing data, depth) still applies.
func parseLastWins(raw []byte, lim gate.Limits) (any, error) {
	v, err := gate.ParseJSON(raw, lim)
	if r, ok := gate.AsRejection(err); !ok || r.Reason != protocol.ReasonDuplicateName {
		return v, err
	}
	if !jsontext.Value(raw).IsValid(jsontext.AllowDuplicateNames(true)) {
		return nil, err // another fault besides the duplicate: stay strict
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if derr := dec.Decode(&v); derr != nil {
		return nil, err
	}
	maxDepth := lim.MaxDepth
	if maxDepth <= 0 {
		maxDepth = protocol.DefaultMaxDepth
	}
	if depth(v) > maxDepth {
		return nil, gate.Reject(protocol.GateParse, protocol.ReasonDepthLimit, "nesting deeper than %d", maxDepth)
	}
	return v, nil
}

// depth returns the nesting depth of objects and arrays in v.
func depth(v any) int {
	d := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 1
	case []any:
		for _, e := range v {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}
