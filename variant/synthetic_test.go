package variant_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/variant"
)

// gaugeCorpus is a one-tool corpus with what the built-in one lacks: a
// number with a maximum, a fraction, a boolean, an array, an open object,
// and an example that belongs to two versions.
func gaugeCorpus() *corpus.Corpus {
	const tool = `{"tool": "gauge", "request": {"method": "GET", "path": "/gauges/{gauge_id}"},
 "arguments": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
   "properties": {"gauge_id": {"type": "string", "pattern": "^g-[0-9]{1,6}$"}},
   "required": ["gauge_id"], "additionalProperties": false},
 "format": "json", "content_type": "application/json",
 "versions": {
   "v1": {"schema": "upstream/v1.schema.json", "project": {"gauge_id": "/gauge_id", "level": "/level"}, "bind": {"/gauge_id": "gauge_id"}},
   "v2": {"schema": "upstream/v1.schema.json", "project": {"gauge_id": "/gauge_id", "level": "/level"}, "bind": {"/gauge_id": "gauge_id"}}}}`
	const schema = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "properties": {
   "gauge_id": {"type": "string"},
   "level": {"type": "integer", "minimum": 0, "maximum": 100},
   "ratio": {"type": "number", "minimum": 0, "maximum": 1},
   "enabled": {"type": "boolean"},
   "tags": {"type": "array", "items": {"type": "string"}},
   "meta": {"type": "object", "properties": {"note": {"type": "string"}}},
   "labels": {"type": "object", "properties": {"owner": {"type": "string", "minLength": 1}, "team": {"type": "string"}}, "required": ["owner"], "additionalProperties": false}},
 "required": ["gauge_id", "level"], "additionalProperties": false}`
	const cases = `{"accepted": [{"id": "ok", "body": "accepted/ok.json", "versions": ["v1", "v2"],
 "arguments": {"gauge_id": "g-17"}, "expect": {"gauge_id": "g-17", "level": 42}}]}`
	const body = `{"gauge_id": "g-17", "level": 42, "ratio": 0.5, "enabled": true, "tags": ["a", "b"],
 "meta": {"note": "n {{canary:note}}"}, "labels": {"owner": "ops", "team": "core"}}`
	return corpus.New(fstest.MapFS{
		"gauge/tool.json":               {Data: []byte(tool)},
		"gauge/upstream/v1.schema.json": {Data: []byte(schema)},
		"gauge/contract.json":           {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`)},
		"gauge/cases.json":              {Data: []byte(cases)},
		"gauge/accepted/ok.json":        {Data: []byte(body)},
	})
}

func TestOracleOnAnotherCorpus(t *testing.T) {
	lim := corpus.Limits{MaxBytes: 4096, MaxDepth: 8, Freshness: 5 * time.Minute, Skew: 30 * time.Second}
	checkOracle(t, gaugeCorpus(), variant.Options{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth}, lim)
}

func TestAnotherCorpusReachesWhatTheBuiltinCannot(t *testing.T) {
	vs, err := variant.Generate(gaugeCorpus(), variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		ids = append(ids, v.ID)
	}
	for _, want := range []string{
		"gauge/ok@v1/above_maximum/level",
		"gauge/ok@v2/above_maximum/ratio",
		"gauge/ok@v1/extra_property/meta", // an open object: accepted
		"gauge/ok@v1/type_swap/enabled#string",
	} {
		if !slices.Contains(ids, want) {
			t.Errorf("no variant %s among:\n%s", want, strings.Join(ids, "\n"))
		}
	}
}

// issueCorpus is a one-tool corpus whose answer binds an integer and a
// boolean to string arguments, as an issue tracker's number and a flag.
func issueCorpus() *corpus.Corpus {
	const tool = `{"tool": "issue", "request": {"method": "GET", "path": "/issues/{number}"},
 "arguments": {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
   "properties": {"number": {"type": "string", "pattern": "^[1-9][0-9]{0,9}$"}, "open": {"type": "string", "enum": ["true", "false"]}},
   "required": ["number", "open"], "additionalProperties": false},
 "format": "json", "content_type": "application/json",
 "versions": {"v1": {"schema": "upstream/v1.schema.json", "project": {"number": "/number", "title": "/title"},
   "bind": {"/number": "number", "/open": "open"}}}}`
	const schema = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
 "properties": {"number": {"type": "integer", "minimum": 1}, "open": {"type": "boolean"}, "title": {"type": "string", "maxLength": 200},
   "body": {"type": "string"}},
 "required": ["number", "open", "title"], "additionalProperties": false}`
	const cases = `{"accepted": [{"id": "open", "body": "accepted/open.json", "versions": ["v1"],
 "arguments": {"number": "1347", "open": "true"}, "expect": {"number": 1347, "title": "Login fails"}}]}`
	return corpus.New(fstest.MapFS{
		"issue/tool.json":               {Data: []byte(tool)},
		"issue/upstream/v1.schema.json": {Data: []byte(schema)},
		"issue/contract.json":           {Data: []byte(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}`)},
		"issue/cases.json":              {Data: []byte(cases)},
		"issue/accepted/open.json":      {Data: []byte(`{"number": 1347, "open": true, "title": "Login fails", "body": "{{canary:body}}"}`)},
	})
}

// TestIntegerAndBooleanBindings: binding compares JSON values, so an
// integer and a boolean bind to string arguments, and wrong_bound_id
// changes each (the oracle agrees with every declaration).
func TestIntegerAndBooleanBindings(t *testing.T) {
	lim := corpus.Limits{MaxBytes: 4096, MaxDepth: 8, Freshness: 5 * time.Minute, Skew: 30 * time.Second}
	checkOracle(t, issueCorpus(), variant.Options{MaxBytes: lim.MaxBytes, MaxDepth: lim.MaxDepth}, lim)
	vs, err := variant.Generate(issueCorpus(), variant.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, v := range vs {
		if v.Operator == "wrong_bound_id" {
			ids = append(ids, v.ID+" "+v.Expect.Reason)
		}
	}
	want := []string{
		"issue/open/wrong_bound_id/number#near binding_mismatch",
		"issue/open/wrong_bound_id/number#negated schema_violation",
		"issue/open/wrong_bound_id/open#flipped binding_mismatch",
	}
	if !slices.Equal(ids, want) {
		t.Errorf("wrong_bound_id cases %q, want %q", ids, want)
	}
}
