package openapi

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/internal/judge"
)

// loadFile loads testdata/name with opts, failing the test on error.
func loadFile(tb testing.TB, name string, opts Options) *Description {
	tb.Helper()
	spec, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	d, err := Load(spec, opts)
	if err != nil {
		tb.Fatalf("Load(%s): %v", name, err)
	}
	return d
}

// operation selects sel in d, failing the test on error.
func operation(tb testing.TB, d *Description, sel Selector) *Operation {
	tb.Helper()
	op, err := d.Operation(sel)
	if err != nil {
		tb.Fatalf("Operation(%v): %v", sel, err)
	}
	return op
}

// namedSchema is one produced schema and what names it in messages.
type namedSchema struct {
	name   string
	schema json.RawMessage
}

// schemasOf lists every schema op carries.
func schemasOf(op *Operation) []namedSchema {
	var out []namedSchema
	for _, p := range op.Parameters {
		out = append(out, namedSchema{"parameter " + p.Name, p.Schema})
	}
	for _, r := range op.Responses {
		if r.Schema != nil {
			out = append(out, namedSchema{"response " + r.Status, r.Schema})
		}
	}
	return out
}

// mustCompile compiles schema as the judge does.
func mustCompile(tb testing.TB, name string, schema json.RawMessage) *judge.Schema {
	tb.Helper()
	s, err := judge.Compile(name, schema)
	if err != nil {
		tb.Fatalf("%s does not compile: %v\n%s", name, err, schema)
	}
	return s
}

// validates reports whether the judge's schema s accepts instance.
func validates(tb testing.TB, s *judge.Schema, instance json.RawMessage) error {
	tb.Helper()
	v, err := judge.ParseJSON(instance, judge.Limits{MaxDepth: 256})
	if err != nil {
		tb.Fatalf("instance is not strict JSON: %v\n%s", err, instance)
	}
	return s.Validate(v)
}

// checkSchemas proves what every produced schema of op must be: it
// compiles under the judge, is closed (unless open), and accepts its
// Minimal instance; and every example it carries validates unless bad
// names it ("404/example").
func checkSchemas(t *testing.T, op *Operation, open bool, bad []string) {
	t.Helper()
	for _, ns := range schemasOf(op) {
		s := mustCompile(t, ns.name, ns.schema)
		if err := judge.Closed(ns.schema); err != nil && !open {
			t.Errorf("%s is not closed: %v\n%s", ns.name, err, ns.schema)
		}
		if open && strings.Contains(string(ns.schema), "unevaluatedProperties") {
			t.Errorf("%s is closed though Options.Open is set:\n%s", ns.name, ns.schema)
		}
		m, err := Minimal(ns.schema)
		if err != nil {
			t.Errorf("Minimal(%s): %v", ns.name, err)
		} else if err := validates(t, s, m); err != nil {
			t.Errorf("Minimal(%s) = %s, refused: %v", ns.name, m, err)
		}
	}
	for _, p := range op.Parameters {
		if p.Example != nil {
			if err := validates(t, mustCompile(t, p.Name, p.Schema), p.Example); err != nil {
				t.Errorf("parameter %s: example %s refused: %v", p.Name, p.Example, err)
			}
		}
	}
	checkExamples(t, op, bad)
}

// checkExamples checks every response example against its schema.
func checkExamples(t *testing.T, op *Operation, bad []string) {
	t.Helper()
	for _, r := range op.Responses {
		if r.Schema == nil {
			continue
		}
		s := mustCompile(t, r.Status, r.Schema)
		for _, e := range r.Examples {
			err := validates(t, s, e.Value)
			wantBad := contains(bad, r.Status+"/"+e.Name)
			if (err != nil) != wantBad {
				t.Errorf("response %s example %s: validation error %v, want one: %v", r.Status, e.Name, err, wantBad)
			}
		}
	}
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, item := range list {
		if item == s {
			return true
		}
	}
	return false
}

// wantNote is a Note a test expects: its exact pointer, and a part of
// its message.
type wantNote struct {
	pointer, message string
}

// checkNotes checks that got holds exactly the wanted notes.
func checkNotes(t *testing.T, got []Note, want []wantNote) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range want {
		found := false
		for i, n := range got {
			if !used[i] && n.Pointer == w.pointer && strings.Contains(n.Message, w.message) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("no note at %s containing %q", w.pointer, w.message)
		}
	}
	for i, n := range got {
		if !used[i] {
			t.Errorf("unexpected note at %s: %s", n.Pointer, n.Message)
		}
	}
}

// refErr returns the *RefError in err's chain, failing the test when
// there is none.
func refErr(tb testing.TB, err error) *RefError {
	tb.Helper()
	var re *RefError
	if !errors.As(err, &re) {
		tb.Fatalf("error %v is no *RefError", err)
	}
	return re
}
