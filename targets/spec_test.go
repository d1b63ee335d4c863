package targets_test

import (
	"errors"
	"strings"
	"testing"

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
		{"a command", targets.Spec{Command: "./adapter --flag 'a b'"}, "process", ""},
		{"a URL with its mock address", targets.Spec{URL: "http://127.0.0.1:8080", UpstreamListen: "127.0.0.1:9099"}, "url", ""},
		{"two targets", targets.Spec{Command: "./a", URL: "http://127.0.0.1:1"}, "", "exclude each other"},
		{"a URL without the mock address", targets.Spec{URL: "http://127.0.0.1:8080"}, "", "needs --upstream-listen"},
		{"the mock off loopback", targets.Spec{URL: "http://127.0.0.1:8080", UpstreamListen: "10.0.0.1:9099"}, "", "--upstream-listen: \"10.0.0.1\" is not a loopback address"},
		{"the mock address without a port", targets.Spec{URL: "http://127.0.0.1:8080", UpstreamListen: "127.0.0.1"}, "", "--upstream-listen:"},
		{"not an http URL", targets.Spec{URL: "ftp://127.0.0.1", UpstreamListen: "127.0.0.1:9099"}, "", "--target-url: want an http URL"},
		{"an audit file without a URL", targets.Spec{Command: "./a", AuditFile: "audit.jsonl"}, "", "go with --target-url"},
		{"an unbalanced quote", targets.Spec{Command: "./a 'b"}, "", "--target-cmd:"},
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
				if got != nil || !tt.spec.Empty() {
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
