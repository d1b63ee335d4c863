package mutant

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/gate"
)

// decodeMutants are faults real MCP servers have in how they decode an
// upstream answer into their types: encoding/json's case-insensitive
// member match, and a nil dereference on null that takes the process down.
func decodeMutants() map[string]mutant {
	return map[string]mutant{
		"case-insensitive-members": {
			"member names are matched case-insensitively, the last of two that match wins (encoding/json into a struct)",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithParser(parseFolded)}
			},
		},
		crashOnNull: {
			"an upstream answer of null makes the process panic, as a handler that dereferences what it decoded does (serve it in its own process)",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithParser(parseCrashOnNull)}
			},
		},
	}
}

// crashOnNull names the mutant whose process dies on a null answer.
const crashOnNull = "crash-on-null"

// Crashes reports whether the named mutant takes its process down (on
// some answers): serve it in a process of its own (toolcert-mutant), never
// inside the harness.
func Crashes(name string) bool { return name == crashOnNull }

// parseFolded is gate.ParseJSON followed by what decoding into a Go
// struct with encoding/json does to member names: a member whose name
// equals an earlier one's but for case replaces it, under the earlier name.
func parseFolded(raw []byte, lim gate.Limits) (any, error) {
	v, err := gate.ParseJSON(raw, lim)
	if err != nil {
		return v, err
	}
	folded, ferr := readFolded(jsontext.NewDecoder(bytes.NewReader(raw)))
	if ferr != nil {
		return v, nil
	}
	return folded, nil
}

// readFolded reads the next value of dec, folding member names as
// parseFolded says; numbers stay json.Number.
func readFolded(dec *jsontext.Decoder) (any, error) {
	switch dec.PeekKind() {
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		obj := map[string]any{}
		var names []string
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String() // a token is valid only until the next read
			val, err := readFolded(dec)
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				if bytes.EqualFold([]byte(n), []byte(name)) {
					name = n
					break
				}
			}
			if _, seen := obj[name]; !seen {
				names = append(names, name)
			}
			obj[name] = val
		}
		_, err := dec.ReadToken()
		return obj, err
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return nil, err
		}
		arr := []any{}
		for dec.PeekKind() != ']' {
			val, err := readFolded(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, val)
		}
		_, err := dec.ReadToken()
		return arr, err
	}
	val, err := dec.ReadValue()
	if err != nil {
		return nil, err
	}
	if val.Kind() == '0' {
		return json.Number(val), nil
	}
	var v any
	err = json.Unmarshal(val, &v)
	return v, err
}

// parseCrashOnNull panics, in a goroutine nothing recovers, on an answer
// that is null: the process dies with a Go panic's trace on standard
// error, as a server that dereferences the struct it decoded into does.
func parseCrashOnNull(raw []byte, lim gate.Limits) (any, error) {
	if string(bytes.TrimSpace(raw)) == "null" {
		crash(fmt.Sprintf("decode answer: %d bytes: nil pointer: the upstream answered null", len(raw)))
	}
	return gate.ParseJSON(raw, lim)
}

// crash panics with msg where no recover can catch it, and waits for the
// process to end.
func crash(msg string) {
	go func() { panic(msg) }()
	select {}
}
