package targets

import (
	"net/http"
	"testing"
)

func TestToolMapRenderArguments(t *testing.T) {
	m := ToolMap{Arguments: `{"owner": {{json .owner}}, "pull_number": {{.number}}}`}
	got, err := m.RenderArguments([]byte(`{"owner":"acme","number":"42"}`))
	if err != nil || string(got) != `{"owner": "acme", "pull_number": 42}` {
		t.Errorf("RenderArguments = %s, %v", got, err)
	}
	if got, err := (ToolMap{}).RenderArguments([]byte(`{"a":"b"}`)); err != nil || string(got) != `{"a":"b"}` {
		t.Errorf("no template: %s, %v; want the arguments as they are", got, err)
	}
	for _, bad := range []string{`{"x": {{.missing}}}`, `[1, 2]`, `{"x": {{.owner}}}`} {
		if _, err := (ToolMap{Arguments: bad}).RenderArguments([]byte(`{"owner":"acme"}`)); err == nil {
			t.Errorf("RenderArguments(%s) accepted what is not a JSON object of known arguments", bad)
		}
	}
}

func TestToolMapRenderRequest(t *testing.T) {
	m := ToolMap{Method: http.MethodGet, Path: "/v1/changes/{{path .id}}/review?q={{query .q}}",
		Header: map[string]string{"Authorization": "Bearer {{token}}"}}
	r, err := m.RenderRequest([]byte(`{"id":"CR-1/../x","q":"a b&c"}`), "tok")
	if err != nil {
		t.Fatal(err)
	}
	if r.Method != "GET" || r.Path != "/v1/changes/CR-1%2F..%2Fx/review?q=a+b%26c" || r.Header.Get("Authorization") != "Bearer tok" || r.Body != nil {
		t.Errorf("RenderRequest = %+v", r)
	}
	post, err := ToolMap{Path: "/call"}.RenderRequest([]byte(`{"a":"b"}`), "")
	if err != nil || post.Method != "POST" || string(post.Body) != `{"a":"b"}` || post.Header.Get("Content-Type") != "application/json" {
		t.Errorf("a POST without a body template: %+v, %v; want the arguments as its JSON body", post, err)
	}
}

func TestToolMapFailedAndCheck(t *testing.T) {
	tests := []struct {
		status string
		code   int
		want   bool
	}{
		{"", 200, false}, {"", 204, false}, {"", 302, true}, {"", 500, true},
		{"400-599", 404, true}, {"400-599", 302, false}, {"404, 500-503", 502, true}, {"404, 500-503", 504, false},
	}
	for _, tt := range tests {
		if got, err := (ToolMap{FailureStatus: tt.status}).Failed(tt.code); err != nil || got != tt.want {
			t.Errorf("Failed(%q, %d) = %v, %v; want %v", tt.status, tt.code, got, err, tt.want)
		}
	}
	for _, bad := range []ToolMap{
		{FailureStatus: "5xx"}, {FailureStatus: "599-400"}, {Result: "html"}, {Data: "data"},
		{Path: "/{{.x"}, {Header: map[string]string{"X": "{{nope}}"}}, {Code: "~2"},
	} {
		if err := bad.Check(); err == nil {
			t.Errorf("Check(%+v) passed a malformed map", bad)
		}
	}
	if err := (ToolMap{Path: "/{{path .id}}", Result: "text:2", Data: "/a~1b"}).Check(); err != nil {
		t.Errorf("Check of a good map: %v", err)
	}
}
