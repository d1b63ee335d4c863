package reference

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolcert/toolcert/gate"
)

func TestConfigFromEnv(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    func(c *Config)
		wantErr string
	}{
		{name: "defaults", env: map[string]string{}, want: func(c *Config) {}},
		{name: "all set", env: map[string]string{
			"TOOLCERT_UPSTREAM_URL": "http://127.0.0.1:9000", "TOOLCERT_LISTEN": "127.0.0.1:9001",
			"TOOLCERT_AUDIT_FILE": "/tmp/a.jsonl", "TOOLCERT_POLICY_FILE": "/tmp/p.yaml",
			"TOOLCERT_MAX_BYTES": "100", "TOOLCERT_MAX_DEPTH": "4", "TOOLCERT_MAX_ATTEMPTS": "5",
			"TOOLCERT_DEADLINE": "3s", "TOOLCERT_READ_TIMEOUT": "1s", "TOOLCERT_FRESHNESS": "1m", "TOOLCERT_FUTURE_SKEW": "2s",
		}, want: func(c *Config) {
			c.UpstreamURL, c.Listen, c.AuditFile, c.PolicyFile = "http://127.0.0.1:9000", "127.0.0.1:9001", "/tmp/a.jsonl", "/tmp/p.yaml"
			c.Limits = gate.Limits{MaxBytes: 100, MaxDepth: 4}
			c.MaxAttempts, c.Deadline, c.ReadTimeout, c.Freshness, c.FutureSkew = 5, 3*time.Second, time.Second, time.Minute, 2*time.Second
		}},
		{name: "bad integer", env: map[string]string{"TOOLCERT_MAX_BYTES": "x"}, wantErr: `TOOLCERT_MAX_BYTES: want a positive integer, got "x"`},
		{name: "zero attempts", env: map[string]string{"TOOLCERT_MAX_ATTEMPTS": "0"}, wantErr: `TOOLCERT_MAX_ATTEMPTS: want a positive integer, got "0"`},
		{name: "bad duration", env: map[string]string{"TOOLCERT_DEADLINE": "2"}, wantErr: `TOOLCERT_DEADLINE: want a positive duration such as 400ms or 2s, got "2"`},
		{name: "negative duration", env: map[string]string{"TOOLCERT_FRESHNESS": "-1m"}, wantErr: `TOOLCERT_FRESHNESS: want a positive duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ConfigFromEnv(func(k string) string { return tt.env[k] })
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := DefaultConfig()
			tt.want(&want)
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(Config{}, "Now")); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestNewConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want error
	}{
		{name: "no upstream", cfg: Config{}, want: ErrNoUpstream},
		{name: "negative", cfg: Config{UpstreamURL: "http://127.0.0.1:1", Deadline: -1}, want: ErrNegative},
		{name: "not http", cfg: Config{UpstreamURL: "file:///etc/passwd"}},
		{name: "no host", cfg: Config{UpstreamURL: "http://"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.cfg)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Errorf("New err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestSchemasClosed(t *testing.T) {
	for _, tool := range Tools() {
		kinds := []string{"args", "contract"}
		for _, v := range Versions(tool) {
			kinds = append(kinds, "vendor."+v)
		}
		for _, kind := range kinds {
			b, err := Schema(tool, kind)
			if err != nil {
				t.Fatal(err)
			}
			if err := gate.Closed(b); err != nil {
				t.Errorf("%s %s: %v", tool, kind, err)
			}
		}
	}
}
