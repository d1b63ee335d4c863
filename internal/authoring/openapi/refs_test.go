package openapi

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileRefs follows relative file $refs under the base folder, from
// file to file, with notes pointing into the file they are in.
func TestFileRefs(t *testing.T) {
	d := loadFile(t, "refs/main.yaml", Options{BaseDir: filepath.Join("testdata", "refs")})
	op := operation(t, d, Selector{OperationID: "users/get"})
	if len(op.Parameters) != 1 || op.Parameters[0].Name != "user_id" {
		t.Errorf("parameters %+v, want user_id from schemas/params.yaml", op.Parameters)
	}
	schema := string(op.Responses[0].Schema)
	if !strings.Contains(schema, `"city"`) {
		t.Errorf("schema does not inline common.yaml#/Address:\n%s", schema)
	}
	checkSchemas(t, op, false, nil)
	checkNotes(t, op.Notes, []wantNote{
		{"schemas/user.yaml#/User/properties/handle/format", `format "x-handle" is not a Draft 2020-12 format`},
	})
}

// TestRefRefused checks every $ref that must not be followed.
func TestRefRefused(t *testing.T) {
	base := filepath.Join("testdata", "refs")
	for _, tc := range []struct {
		name, id, base, ref string
		err                 error
	}{
		{"a file outside the base folder", "outside", base, "../outside.yaml#/Secret", ErrFileRef},
		{"an absolute path", "absolute", base, "/etc/passwd", ErrFileRef},
		{"a remote URL, never fetched", "remote", base, "https://schemas.example.com/user.yaml#/User", ErrRemoteRef},
		{"a file without a base folder", "users/get", "", "schemas/params.yaml#/user_id", ErrFileRef},
		{"a pointer that leads nowhere", "missing", base, "#/components/schemas/nothing", ErrBrokenRef},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := loadFile(t, "refs/main.yaml", Options{BaseDir: tc.base})
			_, err := d.Operation(Selector{OperationID: tc.id})
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v, want %v", err, tc.err)
			}
			if re := refErr(t, err); re.Ref != tc.ref {
				t.Errorf("RefError.Ref = %q, want %q", re.Ref, tc.ref)
			}
			if !strings.Contains(err.Error(), tc.ref) {
				t.Errorf("error %q does not name the ref", err)
			}
		})
	}
}
