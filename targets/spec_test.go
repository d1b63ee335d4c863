package targets_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/targets"
)

func TestSpecBuild(t *testing.T) {
	tests := []struct {
		name    string
		spec    targets.Spec
		want    string // the target's String prefix, or "" for none
		wantErr string // a substring of the error, "" for none
	}{
		{"no target", targets.Spec{}, "", ""},
		{"a command", targets.Spec{Kind: targets.KindV1Process, Command: "./adapter --flag 'a b'"}, "process", ""},
		{"words and lane values", targets.Spec{Kind: targets.KindV1Process, Argv: []string{"./adapter", "--up={{.UpstreamURL}}"}}, "process", ""},
		{"a URL with its mock address", targets.Spec{Kind: targets.KindV1URL, URL: "http://127.0.0.1:8080", UpstreamListen: "127.0.0.1:9099"}, "url", ""},
		{"an MCP server on stdio", targets.Spec{Kind: targets.KindMCPStdio, Command: "server --stdio", ReadyTimeout: time.Second}, "mcp-stdio", ""},
		{"an MCP server per lane over HTTP", targets.Spec{Kind: targets.KindMCPHTTP, Command: "server --listen {{.Listen}}"}, "mcp-http", ""},
		{"an MCP server already running", targets.Spec{Kind: targets.KindMCPHTTP, URL: "http://127.0.0.1:8090/mcp", UpstreamListen: "127.0.0.1:9099"}, "mcp-http", ""},
		{"an unknown kind", targets.Spec{Kind: "grpc"}, "", "kind: \"grpc\" is not one of"},
		{"a process without a command", targets.Spec{Kind: targets.KindMCPStdio}, "", "command: mcp-stdio needs a command"},
		{"a URL without the mock address", targets.Spec{Kind: targets.KindV1URL, URL: "http://127.0.0.1:8080"}, "", "needs upstream-listen"},
		{"an MCP URL without the mock address", targets.Spec{Kind: targets.KindMCPHTTP, URL: "http://127.0.0.1:8090/mcp"}, "", "needs upstream-listen"},
		{"MCP over HTTP with neither", targets.Spec{Kind: targets.KindMCPHTTP}, "", "needs a url"},
		{"the mock off loopback", targets.Spec{Kind: targets.KindV1URL, URL: "http://127.0.0.1:8080", UpstreamListen: "10.0.0.1:9099"}, "", "upstream-listen: \"10.0.0.1\" is not a loopback address"},
		{"the mock address without a port", targets.Spec{Kind: targets.KindV1URL, URL: "http://127.0.0.1:8080", UpstreamListen: "127.0.0.1"}, "", "upstream-listen:"},
		{"not an http URL", targets.Spec{Kind: targets.KindV1URL, URL: "ftp://127.0.0.1", UpstreamListen: "127.0.0.1:9099"}, "", "url: want an http URL"},
		{"an audit file for a started target", targets.Spec{Kind: targets.KindV1Process, Command: "./a", AuditFile: "audit.jsonl"}, "", "go with a target that is already running"},
		{"an unbalanced quote", targets.Spec{Kind: targets.KindV1Process, Command: "./a 'b"}, "", "command:"},
		{"an image without a name", targets.Spec{Kind: targets.KindV1Image}, "", "image: v1-image needs an image"},
		{"files for an image", targets.Spec{Kind: targets.KindV1Image, Image: "x:dev", Files: []targets.FileTemplate{{Path: "a", Text: "b"}}}, "", "files:"},
		{"a relative MCP path", targets.Spec{Kind: targets.KindMCPHTTP, Command: "server", Path: "mcp"}, "", "path:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.spec.Build()
			if tt.wantErr != "" {
				var se *targets.SpecError
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &se) {
					t.Fatalf("Build() error %v, want a *SpecError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("Build(): %v", err)
			}
			if tt.want == "" {
				if got != nil {
					t.Fatalf("Build() = %v, want no target", got)
				}
				return
			}
			if got == nil || !strings.HasPrefix(got.String(), tt.want) {
				t.Fatalf("Build() = %v, want a %s target", got, tt.want)
			}
		})
	}
}
