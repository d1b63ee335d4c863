package targets

import (
	"bytes"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"text/template"
)

// LaneValues are the values of one lane that a target's command words,
// environment values and per-lane files may name as {{.UpstreamURL}},
// {{.UpstreamHost}}, {{.Listen}}, {{.Port}}, {{.AuditFile}} and {{.Dir}}.
type LaneValues struct {
	// UpstreamURL is the mock upstream's base URL, e.g. http://127.0.0.1:41234.
	UpstreamURL string
	// UpstreamHost is its host:port, e.g. 127.0.0.1:41234.
	UpstreamHost string
	// Listen is the host:port the target must listen on, and Port its port.
	Listen, Port string
	// AuditFile is where the harness reads the audit log.
	AuditFile string
	// Dir is the lane's folder.
	Dir string
}

// Values returns the lane values of e.
func (e Env) Values() LaneValues {
	v := LaneValues{UpstreamURL: e.UpstreamURL, Listen: e.Listen, AuditFile: e.AuditFile, Dir: e.Dir}
	v.UpstreamHost = strings.TrimPrefix(strings.TrimPrefix(e.UpstreamURL, "http://"), "https://")
	if _, port, err := net.SplitHostPort(e.Listen); err == nil {
		v.Port = port
	}
	return v
}

// Expand renders s, a text/template, over v. Text without "{{" is
// returned as it is; a name v does not have is an error.
func Expand(s string, v LaneValues) (string, error) {
	if !strings.Contains(s, "{{") {
		return s, nil
	}
	t, err := template.New("lane").Option("missingkey=error").Parse(s)
	if err != nil {
		return "", fmt.Errorf("template %q: %w", s, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, v); err != nil {
		return "", fmt.Errorf("template %q: %w", s, err)
	}
	return b.String(), nil
}

// expandAll expands every string of words.
func expandAll(words []string, v LaneValues) ([]string, error) {
	out := make([]string, len(words))
	for i, w := range words {
		var err error
		if out[i], err = Expand(w, v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// FileTemplate is a file written for each lane before its target starts:
// a configuration file or a kubeconfig that names the lane's mock.
type FileTemplate struct {
	// Path is where the file goes; a relative path is under the lane's
	// folder. It may use the lane values.
	Path string
	// Text is the file's content, a text/template over the lane values.
	Text string
	// Mode is the file's mode (default 0600).
	Mode fs.FileMode
}

// write writes f for the lane of v and returns its path.
func (f FileTemplate) write(v LaneValues) (string, error) {
	path, err := Expand(f.Path, v)
	if err != nil {
		return "", fmt.Errorf("file path: %w", err)
	}
	if !filepath.IsAbs(path) {
		if v.Dir == "" {
			return "", fmt.Errorf("file %s: a relative path needs the lane's folder", path)
		}
		path = filepath.Join(v.Dir, path)
	}
	text, err := Expand(f.Text, v)
	if err != nil {
		return "", fmt.Errorf("file %s: %w", path, err)
	}
	mode := f.Mode
	if mode == 0 {
		mode = 0o600
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("file %s: %w", path, err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		return "", fmt.Errorf("file %s: %w", path, err)
	}
	return path, nil
}
