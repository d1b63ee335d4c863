package corpus_test

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/corpus"
)

// projectionCorpus is a one-tool corpus whose agent data nests the
// upstream's user login and takes its optional timestamp when there is one.
func projectionCorpus() fstest.MapFS {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		"pull/tool.json": file(`{"tool": "pull", "request": {"method": "GET", "path": "/pulls/{id}"},
			"arguments": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"], "additionalProperties": false},
			"format": "json", "content_type": "application/json",
			"versions": {"v1": {"schema": "upstream/v1.schema.json",
				"project": {"id": "/id", "/author/login": "/user/login", "merged_at": "/merged_at"},
				"optional": ["merged_at"], "bind": {"/id": "id"}}}}`),
		"pull/upstream/v1.schema.json": file(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
			"properties": {"id": {"type": "string"}, "user": {"type": "object", "properties": {"login": {"type": "string"}}, "required": ["login"], "additionalProperties": false},
				"merged_at": {"type": "string", "format": "date-time"}},
			"required": ["id", "user"], "additionalProperties": false}`),
		"pull/contract.json": file(`{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
			"properties": {"tool": {"const": "pull"}, "request_id": {"type": "string"}, "outcome": {"const": "success"},
				"data": {"type": "object", "properties": {"id": {"type": "string"}, "merged_at": {"type": "string"},
					"author": {"type": "object", "properties": {"login": {"type": "string"}}, "required": ["login"], "additionalProperties": false}},
					"required": ["id", "author"], "additionalProperties": false}},
			"required": ["tool", "request_id", "outcome", "data"], "additionalProperties": false}`),
	}
}

// TestEvaluateNestedAndOptionalProjection: a field written as a pointer
// is nested in the agent's data; an optional field the answer lacks is
// left out, and one it has is taken.
func TestEvaluateNestedAndOptionalProjection(t *testing.T) {
	c := corpus.New(projectionCorpus())
	tool := loadTool(t, c, "pull")
	args := map[string]string{"id": "7"}
	for _, tc := range []struct {
		name, body string
		want       map[string]any
	}{
		{"with the optional field", `{"id": "7", "user": {"login": "octo"}, "merged_at": "2026-11-29T15:00:00Z"}`,
			map[string]any{"id": "7", "author": map[string]any{"login": "octo"}, "merged_at": "2026-11-29T15:00:00Z"}},
		{"without it", `{"id": "7", "user": {"login": "octo"}}`,
			map[string]any{"id": "7", "author": map[string]any{"login": "octo"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := c.Evaluate(tool, "v1", corpus.Answer{Status: 200, ContentType: "application/json", Body: []byte(tc.body)}, args, testNow, corpus.Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Accepted {
				t.Fatalf("refused at %s %s: %s", got.Gate, got.Reason, got.Detail)
			}
			if diff := cmp.Diff(tc.want, got.Data); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
		})
	}
}
