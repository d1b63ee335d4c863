package pipeline

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

func TestUpstreamVersion(t *testing.T) {
	a := newTestAdapter(t, "http://127.0.0.1:1", WithAuditWriter(io.Discard))
	tests := []struct {
		name   string
		tool   string
		values []string // values of protocol.VersionHeader, one header line each
		want   string   // "" when the version is refused
	}{
		{"absent is v1", "review_status", nil, "v1"},
		{"v1", "review_status", []string{"v1"}, "v1"},
		{"v2 where supported", "review_status", []string{"v2"}, "v2"},
		{"v2 where not supported", "run_status", []string{"v2"}, ""},
		{"v2 on a text tool", "host_uptime", []string{"v2"}, ""},
		{"unknown version", "review_status", []string{"v3"}, ""},
		{"empty value", "review_status", []string{""}, ""},
		{"case matters", "review_status", []string{"V2"}, ""},
		{"list in one line", "review_status", []string{"v1, v2"}, ""},
		{"repeated header", "review_status", []string{"v1", "v1"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.values {
				h.Add(protocol.VersionHeader, v)
			}
			got, _, err := a.tools[tt.tool].upstreamVersion(h)
			if got != tt.want {
				t.Errorf("version = %q, want %q (err %v)", got, tt.want, err)
			}
			r, ok := gate.AsRejection(err)
			switch {
			case tt.want != "" && err != nil:
				t.Errorf("err = %v, want nil", err)
			case tt.want == "" && (!ok || r.Gate != protocol.GateSchema || r.Reason != protocol.ReasonUnsupportedVersion):
				t.Errorf("err = %v, want schema unsupported_version", err)
			}
		})
	}
}

func TestVersions(t *testing.T) {
	got := map[string][]string{}
	for _, tool := range append(Tools(), "delete_repo") {
		got[tool] = Versions(tool)
	}
	want := map[string][]string{
		"deploy_status":  {"v1"},
		"host_uptime":    {"v1"},
		"review_status":  {"v1", "v2"},
		"run_status":     {"v1"},
		"request_refund": {"v1"},
		"send_email":     nil,
		"purge_cache":    nil,
		"delete_repo":    nil,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Versions (-want +got):\n%s", diff)
	}
}

// fixtureVersion is what TestTableMatchesFixtures reads of a version of a
// fixture's tool.json.
type fixtureVersion struct {
	Project map[string]string `json:"project"`
	Bind    map[string]string `json:"bind"`
	Fresh   []string          `json:"fresh"`
}

// TestTableMatchesFixtures checks the pinned vendor schemas and the
// pointers of the read tools' table against the fixture corpus, so that
// neither drifts from the other unnoticed.
func TestTableMatchesFixtures(t *testing.T) {
	for _, tl := range readTools() {
		var desc struct {
			Versions map[string]fixtureVersion `json:"versions"`
		}
		readJSON(t, filepath.Join("..", "..", "..", "fixtures", tl.name, "tool.json"), &desc)
		for name, ver := range tl.versions {
			t.Run(tl.name+"/"+name, func(t *testing.T) {
				pinned, err := Schema(tl.name, ver.schema)
				if err != nil {
					t.Fatal(err)
				}
				var fixture, ours any
				readJSON(t, filepath.Join("..", "..", "..", "fixtures", tl.name, "upstream", name+".schema.json"), &fixture)
				if err := json.Unmarshal(pinned, &ours); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(fixture, ours); diff != "" {
					t.Errorf("pinned %s schema (-fixture +pinned):\n%s", ver.schema, diff)
				}
				if diff := cmp.Diff(desc.Versions[name], tableVersion(ver)); diff != "" {
					t.Errorf("pointers (-fixture +table):\n%s", diff)
				}
			})
		}
	}
}

// tableVersion returns ver's pointers in the shape of a fixture's tool.json.
func tableVersion(ver version) fixtureVersion {
	out := fixtureVersion{Project: map[string]string{}, Bind: map[string]string{}}
	for _, f := range ver.project {
		out.Project[f.name] = f.pointer
	}
	for _, b := range ver.bind {
		out.Bind[b.pointer] = b.arg
	}
	if ver.fresh != "" {
		out.Fresh = []string{ver.fresh}
	}
	return out
}

// readJSON decodes the JSON file at path into v.
func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

func TestVendorSchemaTransformAppliesToEveryVersion(t *testing.T) {
	var kinds []string
	transform := func(b []byte) []byte {
		var doc struct {
			Title string `json:"title"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Error(err)
		}
		kinds = append(kinds, doc.Title)
		return b
	}
	a := newTestAdapter(t, "http://127.0.0.1:1", WithAuditWriter(io.Discard), WithVendorSchemaTransform(transform))
	want := 0
	for _, tl := range a.tools {
		want += len(tl.versions)
	}
	if len(kinds) != want || want != 6 {
		t.Errorf("transform called for %q, want the %d vendor schemas (6)", kinds, want)
	}
}
