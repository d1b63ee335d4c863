package pipeline

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/targets"
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
	for _, tl := range referenceTools() {
		kinds := []string{"args", "contract"}
		for _, v := range tl.versions {
			kinds = append(kinds, v.schema)
		}
		for _, kind := range kinds {
			b, err := Schema(tl.name, kind)
			if err != nil {
				t.Fatal(err)
			}
			if err := gate.Closed(b); err != nil {
				t.Errorf("%s %s: %v", tl.name, kind, err)
			}
		}
	}
}

func TestPolicyFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "policy.json")
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(good, []byte(testPolicy), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte(`{"allowlist":["send_email"],"allowlist":[]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	up := newUpstream(t, json200(reviewOK))
	a, closer, err := Build(targets.Env{UpstreamURL: up.URL, PolicyFile: good})
	if err != nil {
		t.Fatal(err)
	}
	defer closer.Close()
	if a.policy.ApprovalTTL != time.Second || !a.policy.NeedsApproval("send_email") {
		t.Errorf("policy not loaded: %+v", a.policy)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing.json")} {
		_, _, err := Build(targets.Env{UpstreamURL: up.URL, PolicyFile: path})
		if err == nil || !strings.Contains(err.Error(), "load policy") || !strings.Contains(err.Error(), path) {
			t.Errorf("Build with policy %s: err = %v, want one naming the file", path, err)
		}
	}
	if _, _, err := Build(targets.Env{UpstreamURL: up.URL, PolicyFile: bad}); !errors.Is(err, gate.ErrPolicy) {
		t.Errorf("Build with a bad policy: err = %v, want gate.ErrPolicy", err)
	}
}

func TestBearer(t *testing.T) {
	tests := []struct {
		header []string
		want   string
	}{
		{[]string{"Bearer toolcert-agent"}, "toolcert-agent"},
		{[]string{"bearer toolcert-agent"}, "toolcert-agent"},
		{nil, ""},
		{[]string{"toolcert-agent"}, ""},
		{[]string{"Basic dG9vbGNlcnQ="}, ""},
		{[]string{"Bearer "}, ""},
		{[]string{"Bearer  toolcert-agent"}, ""},
		{[]string{"Bearer toolcert-agent extra"}, ""},
		{[]string{"Bearer toolcert-agent", "Bearer other-token"}, ""},
	}
	for _, tt := range tests {
		h := http.Header{}
		for _, v := range tt.header {
			h.Add("Authorization", v)
		}
		if got := bearer(h); got != tt.want {
			t.Errorf("bearer(%q) = %q, want %q", tt.header, got, tt.want)
		}
	}
}
