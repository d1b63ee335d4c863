package targets

import (
	"os"
	"path/filepath"
	"testing"
)

func TestExpand(t *testing.T) {
	v := Env{UpstreamURL: "http://127.0.0.1:41234", Listen: "127.0.0.1:8081", AuditFile: "/tmp/a.jsonl", Dir: "/tmp/lane-1"}.Values()
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{"--host={{.UpstreamURL}}", "--host=http://127.0.0.1:41234", false},
		{"{{.UpstreamHost}}", "127.0.0.1:41234", false},
		{"--port {{.Port}} --listen {{.Listen}}", "--port 8081 --listen 127.0.0.1:8081", false},
		{"{{.Dir}}/kubeconfig {{.AuditFile}}", "/tmp/lane-1/kubeconfig /tmp/a.jsonl", false},
		{"no template here", "no template here", false},
		{"{{.NoSuchValue}}", "", true},
		{"{{.UpstreamURL", "", true},
	}
	for _, tt := range tests {
		got, err := Expand(tt.in, v)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("Expand(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestFileTemplateWrite(t *testing.T) {
	dir := t.TempDir()
	v := Env{UpstreamURL: "http://127.0.0.1:41234", Dir: dir}.Values()
	path, err := FileTemplate{Path: "kube/config", Text: "server: {{.UpstreamURL}}\n"}.write(v)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || string(b) != "server: http://127.0.0.1:41234\n" || path != filepath.Join(dir, "kube/config") {
		t.Errorf("wrote %s = %q, %v", path, b, err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", st.Mode().Perm())
	}
	if _, err := (FileTemplate{Path: "x", Text: "y"}).write(LaneValues{}); err == nil {
		t.Error("a relative path without a lane folder was written")
	}
}
