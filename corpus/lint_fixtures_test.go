package corpus_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/gate"
)

// testNow is the clock of every test of this package.
var testNow = time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)

// testVars renders bodies as the tests expect: testNow, the default
// limits, canary "tctest"+NAME.
func testVars() corpus.Vars {
	lim := corpus.DefaultLimits()
	return corpus.Vars{
		Now: testNow, Freshness: lim.Freshness, Skew: lim.Skew,
		Canary: func(name, _ string) string { return "tctest" + name },
	}
}

// render renders raw with testVars or fails the test.
func render(tb testing.TB, raw []byte) []byte {
	tb.Helper()
	out, err := corpus.Render(raw, "test", testVars())
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// parseObject renders and parses raw, a JSON object, as gate.ParseJSON
// does.
func parseObject(tb testing.TB, raw []byte) map[string]any {
	tb.Helper()
	v, err := gate.ParseJSON(render(tb, raw), gate.DefaultLimits())
	m, ok := v.(map[string]any)
	if err != nil || !ok {
		tb.Fatalf("parse %s: %v", raw, err)
	}
	return m
}

// builtinCopy returns a writable copy of the built-in corpus.
func builtinCopy(tb testing.TB) fstest.MapFS {
	tb.Helper()
	src := toolcert.Fixtures()
	m := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, name)
		m[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		tb.Fatalf("copy the built-in corpus: %v", err)
	}
	return m
}

// editJSON decodes the JSON file, lets edit change the document and
// writes it back.
func editJSON(tb testing.TB, m fstest.MapFS, file string, edit func(doc any) any) {
	tb.Helper()
	f, ok := m[file]
	if !ok {
		tb.Fatalf("no file %s", file)
	}
	dec := json.NewDecoder(bytes.NewReader(f.Data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	b, err := json.MarshalIndent(edit(doc), "", "  ")
	if err != nil {
		tb.Fatalf("%s: %v", file, err)
	}
	m[file] = &fstest.MapFile{Data: b}
}

// setJSON sets the value at ptr (its parent must exist) in a JSON file.
func setJSON(tb testing.TB, m fstest.MapFS, file, ptr string, v any) {
	tb.Helper()
	editJSON(tb, m, file, func(doc any) any {
		parent, last := parentOf(tb, doc, ptr)
		switch p := parent.(type) {
		case map[string]any:
			p[last] = v
		case []any:
			i, err := strconv.Atoi(last)
			if err != nil || i >= len(p) {
				tb.Fatalf("%s: no element %s", file, ptr)
			}
			p[i] = v
		}
		return doc
	})
}

// deleteJSON deletes the member at ptr in a JSON file.
func deleteJSON(tb testing.TB, m fstest.MapFS, file, ptr string) {
	tb.Helper()
	editJSON(tb, m, file, func(doc any) any {
		parent, last := parentOf(tb, doc, ptr)
		obj, ok := parent.(map[string]any)
		if _, has := obj[last]; !ok || !has {
			tb.Fatalf("%s: no member %s", file, ptr)
		}
		delete(obj, last)
		return doc
	})
}

// parentOf returns the container of the value at ptr, a JSON pointer,
// and the last token, unescaped.
func parentOf(tb testing.TB, doc any, ptr string) (any, string) {
	tb.Helper()
	toks := strings.Split(ptr[1:], "/")
	for i, tok := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	cur := doc
	for _, tok := range toks[:len(toks)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			cur = c[i]
		default:
			tb.Fatalf("no parent for %s", ptr)
		}
	}
	return cur, toks[len(toks)-1]
}
