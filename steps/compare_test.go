package steps

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcert/toolcert/targets"
)

// TestHolds: a text result holds a value written as it is, or an integer
// with its thousands grouped for a person, but not a number inside a
// longer one.
func TestHolds(t *testing.T) {
	for _, tc := range []struct {
		text, value string
		want        bool
	}{
		{"up for 864000 seconds", "864000", true},
		{"up for 864,000 seconds (10d)", "864000", true},
		{"up for 864 000 seconds", "864000", true},
		{"up for 1,864,000 seconds", "864000", false},
		{"up for 864,0001 seconds", "864000", false},
		{"up for 864,000,000 seconds", "864000", false},
		{"balance -12,500", "-12500", true},
		{"id 42", "42", true},
		{"state: approved", "approved", true},
		{"state: rejected", "approved", false},
	} {
		if got := holds(tc.text, tc.value); got != tc.want {
			t.Errorf("holds(%q, %q) = %v, want %v", tc.text, tc.value, got, tc.want)
		}
	}
}

// TestDataDiff: the data check's lines, with and without the tool map's
// comparisons and the tool's optional fields.
func TestDataDiff(t *testing.T) {
	want := map[string]any{"id": "7", "at": "2026-12-01T10:00:00Z", "n": json.Number("0"), "user": map[string]any{"login": "octo"}}
	for _, tc := range []struct {
		name string
		c    comparison
		got  map[string]any
		diff string
	}{
		{"equal", comparison{}, map[string]any{"id": "7", "at": "2026-12-01T10:00:00Z", "n": json.Number("0"), "user": map[string]any{"login": "octo"}}, ""},
		{"another value, a missing member, invented data", comparison{},
			map[string]any{"id": "8", "at": "2026-12-01T10:00:00Z", "user": map[string]any{"login": "octo", "admin": true}},
			"/id: want \"7\", got \"8\"\n/n: missing (want 0)\n/user/admin: invented data true (the corpus expects no such member; a member the target adds of its own goes in the tool map's compare adds)"},
		{"instants, zero left out, a member of its own", comparison{Compare: targets.Compare{Instants: true, OmitZero: true, Adds: []string{"/source"}}},
			map[string]any{"id": "7", "at": "2026-12-01T11:00:00.000+01:00", "source": "api", "user": map[string]any{"login": "octo"}}, ""},
		{"an optional field left out, or null", comparison{optional: []string{"/at", "/extra"}},
			map[string]any{"id": "7", "n": json.Number("0"), "extra": nil, "user": map[string]any{"login": "octo"}}, ""},
	} {
		if got := tc.c.dataDiff(want, tc.got); got != tc.diff {
			t.Errorf("%s: diff\n%s\nwant\n%s", tc.name, got, tc.diff)
		}
	}
}

// TestUnquote: a step's quoted text may hold a quote or a backslash
// written with a backslash before it.
func TestUnquote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`plain`, `plain`},
		{`say \"no\"`, `say "no"`},
		{`a \\ backslash`, `a \ backslash`},
		{`trailing \`, `trailing \`},
	} {
		if got := unquote(tc.in); got != tc.want {
			t.Errorf("unquote(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestHiddenLeavesOutOnlyWhatItNames: compare hidden drops the members it
// names from the expected data, "*" every element, and nothing else: a
// member it does not name is still missing.
func TestHiddenLeavesOutOnlyWhatItNames(t *testing.T) {
	c := comparison{Compare: targets.Compare{Hidden: []string{"/tag", "/data/*/owner/email"}}}
	want := map[string]any{"id": "1", "tag": "dog", "data": []any{
		map[string]any{"name": "rex", "owner": map[string]any{"login": "ann", "email": "a@x"}},
	}}
	got := map[string]any{"id": "1", "data": []any{map[string]any{"name": "rex", "owner": map[string]any{"login": "ann"}}}}
	if diff := c.dataDiff(c.withoutHidden("", want), got); diff != "" {
		t.Errorf("hidden members reported: %s", diff)
	}
	delete(got, "id")
	if diff := c.dataDiff(c.withoutHidden("", want), got); !strings.Contains(diff, "/id: missing") {
		t.Errorf("a member hidden does not name went unreported: %q", diff)
	}
}

// TestDeclaredQuery: a request's query stays on the route only with the
// parameters the route declares, each once.
func TestDeclaredQuery(t *testing.T) {
	for _, c := range []struct {
		raw   string
		names []string
		want  bool
	}{
		{"", nil, true},
		{"x=1", nil, false},
		{"per_page=30&page=2", []string{"per_page", "page"}, true},
		{"q=left%3Fadmin%3Dtrue", []string{"q"}, true},
		{"q=left&admin=true&x=", []string{"q"}, false},
		{"per_page=1&per_page=2", []string{"per_page"}, false},
		{"%zz", []string{"q"}, false},
	} {
		if got := declaredQuery(c.raw, c.names); got != c.want {
			t.Errorf("declaredQuery(%q, %v) = %v, want %v", c.raw, c.names, got, c.want)
		}
	}
}

// TestToolTextLeavesOutTheUpstream: two sessions of a server that writes
// its upstream into a description list the same tools; another change of
// the description is still one.
func TestToolTextLeavesOutTheUpstream(t *testing.T) {
	tool := func(d string) []*mcp.Tool { return []*mcp.Tool{{Name: "get", Description: d}} }
	a := toolText(tool("reads http://127.0.0.1:4001 (127.0.0.1:4001)"), "http://127.0.0.1:4001")
	b := toolText(tool("reads http://127.0.0.1:4002 (127.0.0.1:4002)"), "http://127.0.0.1:4002")
	if stableDiff(a, b) != "" {
		t.Errorf("the lane's upstream counted as a change: %v vs %v", a, b)
	}
	c := toolText(tool("reads http://127.0.0.1:4002, v2"), "http://127.0.0.1:4002")
	if stableDiff(a, c) == "" {
		t.Error("a changed description went unnoticed")
	}
}
