package openapi

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// anchors is a description that shares members through YAML anchors and
// merge keys.
const anchors = `openapi: 3.0.3
info: {title: anchors, version: '1'}
paths:
  /x:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                type: object
                properties:
                  created: &stamp {type: string, format: date-time}
                  updated: *stamp
                  owner:
                    <<: &named {type: object, required: [name], properties: {name: {type: string}}}
                    description: merged
`

// TestYAMLAnchors checks that aliases and merge keys are read as the
// values they stand for.
func TestYAMLAnchors(t *testing.T) {
	d, err := Load([]byte(anchors), Options{})
	if err != nil {
		t.Fatal(err)
	}
	op := operation(t, d, Selector{Method: "GET", Path: "/x"})
	got := string(op.Responses[0].Schema)
	for _, want := range []string{`"updated": {
      "type": "string",
      "format": "date-time"
    }`, `"owner": {
      "description": "merged",
      "type": "object",
      "required": ["name"]`} {
		if !strings.Contains(got, want) {
			t.Errorf("schema lacks %s:\n%s", want, got)
		}
	}
	checkSchemas(t, op, false, nil)
}

// TestDuplicateMember checks that a member written twice in a JSON
// description (which a YAML parser lets through) is an error.
func TestDuplicateMember(t *testing.T) {
	spec := `{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/x": {"get": {"responses": {"200": {"description": "ok",
		"content": {"application/json": {"schema": {"type": "string", "type": "integer"}}}}}}}}}`
	d, err := Load([]byte(spec), Options{})
	if err != nil {
		t.Skipf("libopenapi refuses the duplicate itself: %v", err)
	}
	if _, err := d.Operation(Selector{Method: "GET", Path: "/x"}); err == nil || !strings.Contains(err.Error(), `"type" is written twice`) {
		t.Errorf("Operation error %v, want one naming the duplicate", err)
	}
}

// TestSymlinkOut checks that a file $ref through a symbolic link leading
// out of the base folder is refused.
func TestSymlinkOut(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base")
	if err := os.Mkdir(base, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secret.yaml"), []byte("X: {type: string}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "secret.yaml"), filepath.Join(base, "link.yaml")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	spec := strings.Replace(snippet3, "schema: %s", "schema: {$ref: 'link.yaml#/X'}", 1)
	spec = strings.Replace(strings.Replace(spec, "%s", "3.0.3", 1), "%s", "{}", 1)
	d, err := Load([]byte(spec), Options{BaseDir: base})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Operation(Selector{Method: "GET", Path: "/x"}); !errors.Is(err, ErrFileRef) {
		t.Errorf("Operation error %v, want ErrFileRef", err)
	}
}
