package reports

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	errRender := errors.New("render failed")
	tests := []struct {
		name   string
		why    string
		target func(tb testing.TB, dir string) string // the path to write, prepared
		write  func(io.Writer) error
		fails  bool
		wrap   error  // an error the failure must wrap, if any
		want   string // the file's content afterwards
	}{
		{
			name:   "new file",
			why:    "a write that succeeds leaves the file and nothing else",
			target: func(_ testing.TB, dir string) string { return filepath.Join(dir, "r.json") },
			write:  writeString("new"),
			want:   "new",
		},
		{
			name:   "replaced file",
			why:    "a write that succeeds replaces what was there",
			target: existing("old"),
			write:  writeString("new"),
			want:   "new",
		},
		{
			name:   "write fails half way",
			why:    "a renderer that fails after writing leaves no temporary file and the old content",
			target: existing("old"),
			write: func(w io.Writer) error {
				io.WriteString(w, "half")
				return errRender
			},
			fails: true,
			wrap:  errRender,
			want:  "old",
		},
		{
			name: "rename fails",
			why:  "a folder where the file goes makes the rename fail: the temporary file is removed",
			target: func(tb testing.TB, dir string) string {
				path := filepath.Join(dir, "r.json")
				if err := os.Mkdir(path, 0o755); err != nil {
					tb.Fatal(err)
				}
				return path
			},
			write: writeString("new"),
			fails: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := tt.target(t, dir)
			err := writeAtomic(path, tt.write)
			if (err != nil) != tt.fails {
				t.Fatalf("writeAtomic error %v, want an error: %v (%s)", err, tt.fails, tt.why)
			}
			if tt.wrap != nil && !errors.Is(err, tt.wrap) {
				t.Errorf("writeAtomic error %v does not wrap %v", err, tt.wrap)
			}
			if got := names(t, dir); !slices.Equal(got, []string{"r.json"}) {
				t.Errorf("folder holds %q, want only r.json: %s", got, tt.why)
			}
			if tt.want != "" {
				if b, _ := os.ReadFile(path); string(b) != tt.want {
					t.Errorf("file holds %q, want %q: %s", b, tt.want, tt.why)
				}
			}
		})
	}
}

func TestWriteAtomicMissingFolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "r.json")
	if err := writeAtomic(path, writeString("x")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("writeAtomic into a missing folder: %v, want os.ErrNotExist", err)
	}
}

func TestWriteAtomicMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := writeAtomic(path, writeString("x")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != filePerm {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), os.FileMode(filePerm))
	}
}

// writeString returns a write function that writes s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// existing returns a target function that puts a file holding s in place.
func existing(s string) func(testing.TB, string) string {
	return func(tb testing.TB, dir string) string {
		tb.Helper()
		path := filepath.Join(dir, "r.json")
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			tb.Fatal(err)
		}
		return path
	}
}

// names returns the names in dir, sorted.
func names(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
