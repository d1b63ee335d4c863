package corpus_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
)

func TestLintBuiltinCorpusIsClean(t *testing.T) {
	got := corpus.Lint(corpus.New(toolcert.Fixtures()), testNow, corpus.Limits{})
	if got != nil {
		t.Errorf("Lint(built-in corpus) = %d problems, want nil:\n%s", len(got), problemLines(got))
	}
}

func TestLintBrokenCopies(t *testing.T) {
	const (
		reviewCases = "review_status/cases.json"
		reviewTool  = "review_status/tool.json"
		deployCases = "deploy_status/cases.json"
	)
	// Each want Problem's Message is a substring of the problem's message.
	tests := []struct {
		name  string
		spoil func(t *testing.T, m fstest.MapFS)
		want  []corpus.Problem
	}{
		{
			name: "an open contract",
			spoil: func(t *testing.T, m fstest.MapFS) {
				deleteJSON(t, m, "review_status/contract.json", "/oneOf/0/properties/data/additionalProperties")
			},
			want: []corpus.Problem{{File: "review_status/contract.json", Message: `not closed at "/oneOf/0/properties/data"`}},
		},
		{
			name: "no accepted example",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, deployCases, "/accepted", []any{})
			},
			want: []corpus.Problem{
				{File: deployCases, Pointer: "/accepted", Message: "no accepted example"},
				{File: "deploy_status/accepted/degraded_v1.json", Message: "not used by cases.json"},
				{File: "deploy_status/accepted/healthy.json", Message: "not used by cases.json"},
				{File: "deploy_status/accepted/healthy_v2.json", Message: "not used by cases.json"},
			},
		},
		{
			name: "error answers: a bad status, no text, both a body and a page, a second 4XX",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, reviewTool, "/errors", []any{
					map[string]any{"status": "4XX", "body": map[string]any{"message": "{{text}}"}},
					map[string]any{"status": "2XX", "body": map[string]any{"message": "{{text}}"}},
					map[string]any{"status": "404", "body": map[string]any{"message": "Not Found"}},
					map[string]any{"status": "500", "body": map[string]any{"message": "{{text}}"}, "page": "<p>{{text}}</p>"},
					map[string]any{"status": "4xx", "page": "<p>{{text}}</p>"},
					map[string]any{"status": "503", "body": map[string]any{"message": "{{text}} at {{nowish}}"}},
				})
			},
			want: []corpus.Problem{
				{File: reviewTool, Pointer: "/errors/1", Message: `status "2XX": want one from 300 to 599`},
				{File: reviewTool, Pointer: "/errors/2", Message: "body has no string member holding {{text}}"},
				{File: reviewTool, Pointer: "/errors/3", Message: "want a body (JSON) or a page"},
				{File: reviewTool, Pointer: "/errors/4/status", Message: "a second entry for 4xx"},
				{File: reviewTool, Message: "bad placeholder {{nowish}}"},
			},
		},
		{
			name: "a status reject without a body file, and none declared for its status",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, reviewTool, "/errors", []any{map[string]any{"status": "404", "body": map[string]any{"message": "{{text}}"}}})
				setJSON(t, m, reviewCases, "/rejects/0", map[string]any{"id": "gone", "status": 404, "versions": []any{"v1"},
					"arguments": map[string]any{"change_id": "CR-1042"}, "gate": "transport", "reason": "status_404", "why": "gone"})
				setJSON(t, m, reviewCases, "/rejects/1", map[string]any{"id": "busy", "status": 503, "versions": []any{"v1"},
					"arguments": map[string]any{"change_id": "CR-1042"}, "gate": "transport", "reason": "status_5xx", "why": "busy"})
			},
			want: []corpus.Problem{
				{File: reviewCases, Pointer: "/rejects/1/body", Message: "no body file, and tool.json declares no error answer for status 503"},
				{File: "review_status/rejects/bom.json", Message: "not used by cases.json"},
				{File: "review_status/rejects/duplicate_case.json", Message: "not used by cases.json"},
			},
		},
		{
			name: "a reject of an unknown kind",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, reviewCases, "/rejects/0/kind", "equivalent")
			},
			want: []corpus.Problem{{File: reviewCases, Pointer: "/rejects/0/kind", Message: `"equivalent" is not a kind a reject can be`}},
		},
		{
			name: "a schema of draft-07",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, "deploy_status/upstream/v1.schema.json", "/$schema", "http://json-schema.org/draft-07/schema#")
			},
			want: []corpus.Problem{{File: "deploy_status/upstream/v1.schema.json", Pointer: "/$schema", Message: "draft is not 2020-12"}},
		},
		{
			name: "a contract that pins the adapter's own approval id shape",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, "send_email/contract.json", "/oneOf/1/properties/approval_id/pattern", `^apr\.[A-Za-z0-9]{20}$`)
			},
			want: []corpus.Problem{{File: "send_email/contract.json", Message: `a pending_approval envelope is accepted with approval_id "apr.A1b2C3d4E5f6G7h8I9j0" but not "0-_.aaaa"`}},
		},
		{
			name: "an accepted example whose expect differs",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, reviewCases, "/accepted/0/expect/reviewed_by", "bob@example.com")
			},
			want: []corpus.Problem{{File: reviewCases, Pointer: "/accepted/0/expect", Message: "projects to a different object (-want +got)"}},
		},
		{
			name: "an expect the contract refuses",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, deployCases, "/accepted/0/expect/state", "sunny")
			},
			want: []corpus.Problem{
				{File: deployCases, Pointer: "/accepted/0/expect", Message: "does not satisfy the contract"},
				{File: deployCases, Pointer: "/accepted/0/expect", Message: "projects to a different object"},
			},
		},
		{
			name: "an accepted example the oracle rejects",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, deployCases, "/accepted/0/arguments/environment", "production")
			},
			want: []corpus.Problem{{File: deployCases, Pointer: "/accepted/0", Message: "rejected at semantic binding_mismatch, want accepted"}},
		},
		{
			name: "a reject that the oracle accepts",
			spoil: func(t *testing.T, m fstest.MapFS) {
				m["review_status/rejects/other_change.json"] = &fstest.MapFile{Data: []byte(
					`{"change_id": "CR-1042", "decision": "approved", "reviewed_by": "alice", "comment": "{{canary:comment}}"}`)}
			},
			want: []corpus.Problem{{File: reviewCases, Pointer: "/rejects/8", Message: "accepted by the oracle, want rejected at semantic binding_mismatch"}},
		},
		{
			name:  "a reject with the wrong gate",
			spoil: func(t *testing.T, m fstest.MapFS) { setJSON(t, m, reviewCases, "/rejects/0/gate", "schema") },
			want:  []corpus.Problem{{File: reviewCases, Pointer: "/rejects/0/gate", Message: "rejected at parse bom, want schema bom"}},
		},
		{
			name:  "a reject with the wrong reason",
			spoil: func(t *testing.T, m fstest.MapFS) { setJSON(t, m, reviewCases, "/rejects/3/reason", "syntax") },
			want:  []corpus.Problem{{File: reviewCases, Pointer: "/rejects/3/reason", Message: "rejected at parse duplicate_name, want parse syntax"}},
		},
		{
			name: "a reject without a canary",
			spoil: func(t *testing.T, m fstest.MapFS) {
				m["host_uptime/rejects/banner.txt"] = &fstest.MapFile{Data: []byte("*** Authorized use only ***\nhost=web-1\nuptime_seconds=864000\n")}
			},
			want: []corpus.Problem{{File: "host_uptime/cases.json", Pointer: "/rejects/0/body", Message: "rejects/banner.txt has no {{canary:NAME}} placeholder"}},
		},
		{
			name:  "a missing body file",
			spoil: func(t *testing.T, m fstest.MapFS) { delete(m, "deploy_status/accepted/healthy.json") },
			want:  []corpus.Problem{{File: deployCases, Pointer: "/accepted/0/body", Message: "accepted/healthy.json does not exist"}},
		},
		{
			name:  "an unknown version",
			spoil: func(t *testing.T, m fstest.MapFS) { setJSON(t, m, deployCases, "/accepted/0/versions/0", "v9") },
			want:  []corpus.Problem{{File: deployCases, Pointer: "/accepted/0/versions/0", Message: `unknown version "v9" (tool.json has [v1 v2])`}},
		},
		{
			name:  "a duplicate id",
			spoil: func(t *testing.T, m fstest.MapFS) { setJSON(t, m, reviewCases, "/rejects/1/id", "approved") },
			want:  []corpus.Problem{{File: reviewCases, Pointer: "/rejects/1/id", Message: `duplicate id "approved" (first at /accepted/0/id)`}},
		},
		{
			name: "an unused body file",
			spoil: func(t *testing.T, m fstest.MapFS) {
				m["review_status/rejects/old.json"] = &fstest.MapFile{Data: []byte(`{"note": "{{canary:old}}"}`)}
			},
			want: []corpus.Problem{{File: "review_status/rejects/old.json", Message: "not used by cases.json"}},
		},
		{
			name:  "a path placeholder that is no argument",
			spoil: func(t *testing.T, m fstest.MapFS) { setJSON(t, m, reviewTool, "/request/path", "/reviews/{change}") },
			want:  []corpus.Problem{{File: reviewTool, Pointer: "/request/path", Message: "{change} is not an argument property"}},
		},
		{
			name:  "an open argument schema",
			spoil: func(t *testing.T, m fstest.MapFS) { deleteJSON(t, m, reviewTool, "/arguments/additionalProperties") },
			want:  []corpus.Problem{{File: reviewTool, Pointer: "/arguments", Message: "not closed"}},
		},
		{
			name:  "key_value without keys",
			spoil: func(t *testing.T, m fstest.MapFS) { deleteJSON(t, m, "host_uptime/tool.json", "/keys") },
			want:  []corpus.Problem{{File: "host_uptime/tool.json", Pointer: "/keys", Message: "format key_value needs keys"}},
		},
		{
			name: "a project pointer without its slash",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, "deploy_status/tool.json", "/versions/v1/project/state", "state")
			},
			want: []corpus.Problem{{File: "deploy_status/tool.json", Pointer: "/versions/v1/project/state", Message: "must start with /"}},
		},
		{
			name: "a project pointer the schema does not declare",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, "deploy_status/tool.json", "/versions/v1/project/state", "/status")
			},
			want: []corpus.Problem{
				{File: "deploy_status/tool.json", Pointer: "/versions/v1/project/state", Message: "/status is not a property upstream/v1.schema.json declares"},
				{File: deployCases, Pointer: "/accepted/0", Message: "rejected at schema schema_violation, want accepted: project state: /status names nothing"},
				{File: deployCases, Pointer: "/accepted/1", Message: "rejected at schema schema_violation, want accepted: project state: /status names nothing"},
			},
		},
		{
			name: "a bind to no argument",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, "deploy_status/tool.json", "/versions/v1/bind/~1environment", "env")
			},
			want: []corpus.Problem{{File: "deploy_status/tool.json", Pointer: "/versions/v1/bind/~1environment", Message: `"env" is not an argument property`}},
		},
		{
			name:  "a missing contract",
			spoil: func(t *testing.T, m fstest.MapFS) { delete(m, "deploy_status/contract.json") },
			want:  []corpus.Problem{{File: "deploy_status/contract.json", Message: "does not exist"}},
		},
		{
			name:  "a tool.json with an unknown field",
			spoil: func(t *testing.T, m fstest.MapFS) { setJSON(t, m, "deploy_status/tool.json", "/colour", "red") },
			want:  []corpus.Problem{{File: "deploy_status/tool.json", Message: `unknown field "colour"`}},
		},
		{
			name: "case arguments the argument schema refuses",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, deployCases, "/rejects/0/arguments/environment", "Staging")
			},
			want: []corpus.Problem{{File: deployCases, Pointer: "/rejects/0/arguments", Message: "do not satisfy the argument schema"}},
		},
		{
			name: "a reject served with a status, at another gate than its status gives",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, deployCases, "/rejects/0/status", 404)
			},
			want: []corpus.Problem{{File: deployCases, Pointer: "/rejects/0/gate", Message: "rejected at transport status_404, want schema schema_violation"}},
		},
		{
			name: "a reject with a status that is no HTTP status",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, deployCases, "/rejects/0/status", 1000)
			},
			want: []corpus.Problem{{File: deployCases, Pointer: "/rejects/0/status", Message: "1000 is not an HTTP status"}},
		},
		{
			name: "open decisions about nothing",
			spoil: func(t *testing.T, m fstest.MapFS) {
				setJSON(t, m, "deploy_status/tool.json", "/decide", []any{
					map[string]any{"file": "upstream/v9.schema.json", "decide": "the enum"},
					map[string]any{"file": "upstream/v1.schema.json", "pointer": "/properties/colour", "decide": "the colour"},
					map[string]any{"file": "tool.json", "pointer": "/versions/v1/bind"},
				})
			},
			want: []corpus.Problem{
				{File: "deploy_status/tool.json", Pointer: "/decide/0", Message: "upstream/v9.schema.json does not exist"},
				{File: "deploy_status/tool.json", Pointer: "/decide/1", Message: `upstream/v1.schema.json has nothing at "/properties/colour"`},
				{File: "deploy_status/tool.json", Pointer: "/decide/2/decide", Message: "says nothing to decide"},
			},
		},
		{
			name:  "no tool at all",
			spoil: func(t *testing.T, m fstest.MapFS) { clear(m) },
			want:  []corpus.Problem{{File: ".", Message: "no tool folder"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := builtinCopy(t)
			tt.spoil(t, m)
			got := corpus.Lint(corpus.New(m), testNow, corpus.Limits{})
			if again := corpus.Lint(corpus.New(m), testNow, corpus.Limits{}); !cmp.Equal(got, again) {
				t.Errorf("Lint is not deterministic:\n%s\nthen:\n%s", problemLines(got), problemLines(again))
			}
			if diff := cmp.Diff(tt.want, matchMessages(tt.want, got)); diff != "" {
				t.Errorf("Lint mismatch (-want +got):\n%s\nproblems:\n%s", diff, problemLines(got))
			}
		})
	}
}

// matchMessages returns got with each message replaced by the wanted
// substring it contains, so that cmp.Diff compares File, Pointer and
// the substring.
func matchMessages(want, got []corpus.Problem) []corpus.Problem {
	out := make([]corpus.Problem, len(got))
	for i, p := range got {
		if i < len(want) && strings.Contains(p.Message, want[i].Message) {
			p.Message = want[i].Message
		}
		out[i] = p
	}
	return out
}

// problemLines renders problems one a line.
func problemLines(ps []corpus.Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

func TestUndecided(t *testing.T) {
	m := builtinCopy(t)
	if got := corpus.Undecided(corpus.New(m)); got != nil {
		t.Fatalf("the built-in corpus has open decisions: %v", got)
	}
	decide := []any{
		map[string]any{"file": "tool.json", "pointer": "/versions/v1/bind", "decide": "which member binds the environment"},
		map[string]any{"file": "upstream/v1.schema.json", "pointer": "/properties/state", "decide": "the enum of the states seen"},
	}
	setJSON(t, m, "deploy_status/tool.json", "/decide", decide)
	want := []corpus.Problem{
		{File: "deploy_status/tool.json", Pointer: "/versions/v1/bind", Message: "which member binds the environment"},
		{File: "deploy_status/upstream/v1.schema.json", Pointer: "/properties/state", Message: "the enum of the states seen"},
	}
	if diff := cmp.Diff(want, corpus.Undecided(corpus.New(m))); diff != "" {
		t.Errorf("Undecided mismatch (-want +got):\n%s", diff)
	}
	if got := corpus.Lint(corpus.New(m), testNow, corpus.Limits{}); got != nil {
		t.Errorf("open decisions are not lint problems; got:\n%s", problemLines(got))
	}
}

func TestProblemString(t *testing.T) {
	tests := []struct {
		p    corpus.Problem
		want string
	}{
		{corpus.Problem{File: "review_status/cases.json", Pointer: "/accepted/0/expect", Message: "projects to a different object"},
			"review_status/cases.json: /accepted/0/expect: projects to a different object"},
		{corpus.Problem{File: "review_status/rejects/old.json", Message: "not used by cases.json"},
			"review_status/rejects/old.json: not used by cases.json"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.p.String()); diff != "" {
			t.Errorf("String mismatch (-want +got):\n%s", diff)
		}
	}
}
