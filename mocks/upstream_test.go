package mocks_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/mocks"
)

func TestWithAddr(t *testing.T) {
	tests := []struct {
		name string
		addr string
		want error // nil: starts
	}{
		{"loopback literal", "127.0.0.1:0", nil},
		{"localhost resolves to loopback", "localhost:0", nil},
		{"all interfaces", "0.0.0.0:0", mocks.ErrNotLoopback},
		{"empty host binds all interfaces", ":0", mocks.ErrNotLoopback},
		{"routable address", "192.0.2.1:0", mocks.ErrNotLoopback},
		{"host name", "example.com:80", mocks.ErrNotLoopback},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := mocks.NewUpstream(mocks.WithAddr(tt.addr))
			if !errors.Is(err, tt.want) {
				t.Fatalf("NewUpstream(WithAddr(%q)) error = %v, want %v", tt.addr, err, tt.want)
			}
			if err != nil {
				return
			}
			defer u.Close()
			if !strings.HasPrefix(u.URL(), "http://127.0.0.1:") && !strings.HasPrefix(u.URL(), "http://[::1]:") {
				t.Errorf("URL() = %q, want a loopback URL", u.URL())
			}
		})
	}
	if _, err := mocks.NewUpstream(mocks.WithAddr("no-port")); err == nil {
		t.Errorf("NewUpstream(WithAddr(%q)) succeeded, want an error", "no-port")
	}
	if _, err := mocks.NewUpstream(mocks.WithMaxRecordedBody(-1)); err == nil {
		t.Errorf("NewUpstream(WithMaxRecordedBody(-1)) succeeded, want an error")
	}
}

func TestCloseTwice(t *testing.T) {
	u, err := mocks.NewUpstream()
	if err != nil {
		t.Fatalf("NewUpstream: %v", err)
	}
	if err := u.Close(); err != nil {
		t.Fatalf("first Close: %v", err)
	}
	if err := u.Close(); err != nil {
		t.Errorf("second Close: %v, want nil", err)
	}
}
