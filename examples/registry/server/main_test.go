package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckMembers: a member named twice in one object, at any level,
// after unescaping and case folding, is refused; the same name in two
// objects is not.
func TestCheckMembers(t *testing.T) {
	for _, c := range []struct {
		body string
		dup  bool
	}{
		{`{"name": "a", "version": "1.0.0"}`, false},
		{`{"a": {"name": 1}, "b": {"name": 2}, "c": [{"name": 3}, {"name": 4}]}`, false},
		{`[{"name": "a"}, {"name": "b"}]`, false},
		{`{"name": "a", "name": "b"}`, true},
		{`{"p": {"q": [1, {"x": 1, "y": {}, "x": 2}]}}`, true},
		{`{"name": "a", "n\u0061me": "b"}`, true},
		{`{"name": "a", "NAME": "b"}`, true},
		{`{"size": 1, "ſize": 2}`, true}, // U+017F folds to s, as encoding/json matches it
		{`{"name": "a", "ｎａｍｅ": "b"}`, false},
		{`{"k": ["name", "name"], "name": "x"}`, false},
	} {
		err := checkMembers([]byte(c.body))
		if got := err == errDuplicate; got != c.dup {
			t.Errorf("%s: %v, want a duplicate: %v", c.body, err, c.dup)
		}
	}
}

// TestCheckText: bytes that are not UTF-8 and escapes of lone surrogates
// are refused; a pair and other escapes are not.
func TestCheckText(t *testing.T) {
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{`{"a": "Koçulu \u00e7 \ud83d\ude00 \\u0041 \"\ud800"}`, false},
		{`{"a": "\ud83d\ude00"}`, true},
		{`{"a": "\\ud800"}`, true},
		{`{"a": "\ud800"}`, false},
		{`{"a": "\ude00"}`, false},
		{`{"a": "\ud800\u0041"}`, false},
		{"{\"a\": \"\xff\"}", false},
		{`{"a": "é"}`, true},
	} {
		if got := checkText([]byte(c.body)) == nil; got != c.ok {
			t.Errorf("%s: ok %v, want %v", c.body, got, c.ok)
		}
	}
}

// TestDescriptionExamples checks that every example of a success in the
// description passes the validator, and that a few broken answers do not.
func TestDescriptionExamples(t *testing.T) {
	v, err := newValidator(description)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for path, item := range v.at("paths").(map[string]any) {
		for method := range item.(map[string]any) {
			media, _ := v.at("paths", path, method, "responses", "200", "content", "application/json").(map[string]any)
			if media == nil {
				continue
			}
			var examples []any
			if ex, ok := media["example"]; ok {
				examples = append(examples, ex)
			}
			for _, ex := range asMap(media["examples"]) {
				examples = append(examples, asMap(ex)["value"])
			}
			schema, err := v.answer(strings.ToUpper(method), path, "200")
			if err != nil {
				t.Fatal(err)
			}
			for _, ex := range examples {
				n++
				if err := v.validate(schema, roundTrip(t, ex), ""); err != nil {
					t.Errorf("%s %s: an example fails: %v", method, path, err)
				}
			}
		}
	}
	if n < 8 {
		t.Errorf("%d examples checked, want at least 8", n)
	}
	pkg, _ := v.answer("GET", "/packages/{name}", "200")
	for _, bad := range []string{
		`null`,
		`{"name": "left-pad"}`,
		`{"name": "Left-Pad", "description": null, "latest_version": "1.3.0", "license": null, "repository": null, "keywords": [], "owners": ["azer"], "versions_count": 1, "created_at": "2014-03-24T10:12:31Z", "updated_at": "2025-02-11T09:30:00Z", "deprecated": false}`,
		`{"name": "left-pad", "description": null, "latest_version": "1.3.0", "license": null, "repository": "/relative", "keywords": [], "owners": ["azer"], "versions_count": 1, "created_at": "2014-03-24T10:12:31Z", "updated_at": "2025-02-11T09:30:00Z", "deprecated": false}`,
		`{"name": "left-pad", "description": null, "latest_version": "1.3.0", "license": null, "repository": null, "keywords": [], "owners": ["azer"], "versions_count": 0, "created_at": "2014-03-24T10:12:31Z", "updated_at": "2025-02-11T09:30:00Z", "deprecated": false}`,
		`{"name": "left-pad", "description": null, "latest_version": "1.3.0", "license": null, "repository": null, "keywords": [], "owners": ["azer"], "versions_count": 1.5, "created_at": "2014-03-24T10:12:31Z", "updated_at": "2025-02-11T09:30:00Z", "deprecated": false}`,
		`{"name": "left-pad", "description": null, "latest_version": "1.3.0", "license": null, "repository": null, "keywords": [], "owners": ["azer"], "versions_count": 1, "created_at": "2014-03-24 10:12:31Z", "updated_at": "2025-02-11T09:30:00Z", "deprecated": false}`,
	} {
		if err := v.validate(pkg, decodeNumbers(t, bad), ""); err == nil {
			t.Errorf("%s: passed", bad)
		}
	}
}

func asMap(x any) map[string]any {
	m, _ := x.(map[string]any)
	return m
}

// roundTrip turns a YAML value into what the client decodes from JSON.
func roundTrip(t *testing.T, x any) any {
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	return decodeNumbers(t, string(b))
}

func decodeNumbers(t *testing.T, s string) any {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		t.Fatal(err)
	}
	return x
}
