package reference_test

import (
	"errors"
	"testing"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/targets"
)

// TestNewErrors checks that the front returns the sentinels it documents,
// which callers such as cmd/toolcert-mutant branch on with errors.Is.
func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  reference.Config
		want error
	}{
		{"no upstream: the one field without a default", reference.Config{}, reference.ErrNoUpstream},
		{"a negative deadline", reference.Config{UpstreamURL: "http://127.0.0.1:1", Deadline: -1}, reference.ErrNegative},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := reference.New(tt.cfg)
			if a != nil || !errors.Is(err, tt.want) {
				t.Errorf("New = %v, %v; want nil, %v", a, err, tt.want)
			}
		})
	}
	if _, _, err := reference.Build(targets.Env{}); !errors.Is(err, reference.ErrNoUpstream) {
		t.Errorf("Build without an upstream: err = %v, want ErrNoUpstream", err)
	}
}
