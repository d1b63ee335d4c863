package openapi

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLoadVersion checks the version each description states.
func TestLoadVersion(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"github-2.0.json", "2.0"},
		{"github-3.0.yaml", "3.0.3"},
		{"github-3.1.yaml", "3.1.0"},
	} {
		if got := loadFile(t, tc.file, Options{}).Version(); got != tc.want {
			t.Errorf("%s: Version() = %q, want %q", tc.file, got, tc.want)
		}
	}
}

// TestLoadRefuses checks the documents Load refuses, and why.
func TestLoadRefuses(t *testing.T) {
	for _, tc := range []struct {
		name       string
		spec       []byte
		notOpenAPI bool
	}{
		{"a YAML file that is no OpenAPI description", read(t, "not-openapi.yaml"), true},
		{"an AsyncAPI document", []byte("asyncapi: 2.6.0\ninfo: {title: t, version: '1'}\nchannels: {}\n"), true},
		{"openapi naming a 2.x version", []byte("openapi: 2.0.0\ninfo: {title: t, version: '1'}\npaths: {}\n"), true},
		{"malformed YAML", read(t, "malformed.yaml"), false},
		{"malformed JSON", []byte(`{"openapi": "3.0.3", "paths": {`), false},
		{"an empty document", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Load(tc.spec, Options{})
			if err == nil {
				t.Fatalf("Load = %v, want an error", d)
			}
			if got := errors.Is(err, ErrNotOpenAPI); got != tc.notOpenAPI {
				t.Errorf("Load error %q: errors.Is(ErrNotOpenAPI) = %v, want %v", err, got, tc.notOpenAPI)
			}
		})
	}
}

// read returns testdata/name.
func read(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		tb.Fatal(err)
	}
	return b
}
