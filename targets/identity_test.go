package targets

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func TestSpecExecutable(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh in PATH")
	}
	self := os.Args[0]
	tests := []struct {
		name string
		spec Spec
		want string
		err  error
	}{
		{"a command found in PATH", Spec{Kind: KindV1Process, Command: "sh -c 'exit 0'"}, sh, nil},
		{"a command by its path", Spec{Kind: KindMCPStdio, Argv: []string{self, "--mcp"}}, self, nil},
		{"an MCP server started per lane", Spec{Kind: KindMCPHTTP, Command: "sh", URL: "http://127.0.0.1:1/mcp"}, sh, nil},
		{"an image", Spec{Kind: KindV1Image, Image: "adapter:1"}, "", ErrNoExecutable},
		{"an adapter already running", Spec{Kind: KindV1URL, URL: "http://127.0.0.1:1"}, "", ErrNoExecutable},
		{"an MCP server already running", Spec{Kind: KindMCPHTTP, URL: "http://127.0.0.1:1/mcp"}, "", ErrNoExecutable},
		{"no target", Spec{}, "", ErrNoExecutable},
		{"a command not in PATH", Spec{Kind: KindV1Process, Command: "no-such-adapter-xyz"}, "", exec.ErrNotFound},
		{"an empty command", Spec{Kind: KindV1Process, Command: "  "}, "", ErrEmptyCommand},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.spec.Executable()
			if !errors.Is(err, tt.err) || got != tt.want {
				t.Errorf("Executable() = %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
		})
	}
}

// TestImageID imports a one-file image into the local Docker engine (no
// registry) and reads its ID back; it skips without an engine.
func TestImageID(t *testing.T) {
	docker, err := exec.LookPath("docker")
	if err != nil {
		t.Skip("no docker CLI")
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if err := exec.CommandContext(ctx, docker, "info").Run(); err != nil {
		t.Skip("no Docker engine answers")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "adapter"), []byte("not a real adapter"), 0o755); err != nil {
		t.Fatal(err)
	}
	image := uniqueName("toolcert-identity-test:")
	imp := exec.CommandContext(ctx, "sh", "-c", "tar -C \"$1\" -c adapter | \"$2\" import - \"$3\"", "sh", dir, docker, image)
	out, err := imp.Output()
	if err != nil {
		t.Skipf("docker import: %v", err)
	}
	t.Cleanup(func() { _ = exec.Command(docker, "image", "rm", "-f", image).Run() })
	got, err := ImageID(ctx, image)
	if err != nil {
		t.Fatal(err)
	}
	if want := string(out[:len(out)-1]); got != want {
		t.Errorf("ImageID = %q, want the ID docker import printed, %q", got, want)
	}
	if _, err := ImageID(ctx, uniqueName("toolcert-no-such-image:")); !errors.Is(err, ErrImageNotFound) {
		t.Errorf("ImageID of a missing image: %v, want ErrImageNotFound", err)
	}
}
