package attest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/toolcert/toolcert/targets"
)

func TestSubjectOf(t *testing.T) {
	self := os.Args[0]
	selfSum, err := FileDigest(self)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh in PATH")
	}
	shSum, _ := FileDigest(sh)
	const url = "http://127.0.0.1:8080/mcp"
	tests := []struct {
		name     string
		spec     targets.Spec
		wantName string
		wantSum  string
		digestOf string
	}{
		{"the reference, in process", targets.Spec{}, ReferenceName, selfSum, DigestOfExecutable},
		{"a process found in PATH", targets.Spec{Kind: targets.KindV1Process, Command: "sh -c 'exit 0'"}, filepath.Base(sh), shSum, DigestOfExecutable},
		{"a process by its path", targets.Spec{Kind: targets.KindV1Process, Argv: []string{self, "serve"}}, filepath.Base(self), selfSum, DigestOfExecutable},
		{"an MCP server over stdio", targets.Spec{Kind: targets.KindMCPStdio, Command: "sh"}, filepath.Base(sh), shSum, DigestOfExecutable},
		{"an MCP server started per lane", targets.Spec{Kind: targets.KindMCPHTTP, Command: "sh"}, filepath.Base(sh), shSum, DigestOfExecutable},
		{"an adapter already running", targets.Spec{Kind: targets.KindV1URL, URL: url}, url, StringDigest(url), DigestOfURL},
		{"an MCP server already running", targets.Spec{Kind: targets.KindMCPHTTP, URL: url}, url, StringDigest(url), DigestOfURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := SubjectOf(t.Context(), tt.spec, self)
			if err != nil {
				t.Fatal(err)
			}
			if id.Name != tt.wantName || id.SHA256 != tt.wantSum || id.DigestOf != tt.digestOf {
				t.Errorf("SubjectOf = %+v, want name %s, sha256 %s of the %s", id, tt.wantName, tt.wantSum, tt.digestOf)
			}
			d := id.Descriptor()
			if d.SHA256() != tt.wantSum || d.Annotations["digestOf"] != tt.digestOf {
				t.Errorf("descriptor %+v", d)
			}
		})
	}
	if _, err := SubjectOf(t.Context(), targets.Spec{Kind: targets.KindV1Process, Command: "no-such-adapter-xyz"}, self); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("a command not in PATH: %v, want exec.ErrNotFound", err)
	}
}

func TestWithServer(t *testing.T) {
	id := Identity{Name: "adapter", SHA256: StringDigest("x")}
	got := id.WithServer("weather", "1.4.0").Descriptor()
	if got.Name != "weather" || got.Annotations["serverName"] != "weather" || got.Annotations["serverVersion"] != "1.4.0" {
		t.Errorf("descriptor %+v, want the server's name and version", got)
	}
	if kept := id.WithServer("", "2").Name; kept != "adapter" {
		t.Errorf("an empty server name replaced the name: %q", kept)
	}
}

func TestReferenceDigest(t *testing.T) {
	file := writeTemp(t, "adapter", []byte("binary"))
	if got, err := ReferenceDigest(t.Context(), file); err != nil || got != StringDigest("binary") {
		t.Errorf("ReferenceDigest(file) = %s, %v", got, err)
	}
	const url = "https://adapter.example/v1"
	if got, err := ReferenceDigest(t.Context(), url); err != nil || got != StringDigest(url) {
		t.Errorf("ReferenceDigest(url) = %s, %v", got, err)
	}
}
