package targets

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEnvVars(t *testing.T) {
	full := Env{
		UpstreamURL: "http://127.0.0.1:4000",
		Listen:      "127.0.0.1:5000",
		AuditFile:   "/tmp/audit.jsonl",
		PolicyFile:  "/tmp/policy.json",
		Extra: map[string]string{
			"TOOLCERT_MAX_DEPTH": "32",
			"TOOLCERT_MAX_BYTES": "65536",
			"TOOLCERT_LISTEN":    "ignored:1",
		},
	}
	tests := []struct {
		name   string
		reason string
		env    Env
		rename map[string]string
		want   []string
	}{
		{
			name:   "zero",
			reason: "the two required variables are always set, the optional ones left out",
			want:   []string{"TOOLCERT_UPSTREAM_URL=", "TOOLCERT_LISTEN="},
		},
		{
			name:   "full",
			reason: "fields in protocol order, then Extra sorted; Extra cannot override a field",
			env:    full,
			want: []string{
				"TOOLCERT_UPSTREAM_URL=http://127.0.0.1:4000",
				"TOOLCERT_LISTEN=127.0.0.1:5000",
				"TOOLCERT_AUDIT_FILE=/tmp/audit.jsonl",
				"TOOLCERT_POLICY_FILE=/tmp/policy.json",
				"TOOLCERT_MAX_BYTES=65536",
				"TOOLCERT_MAX_DEPTH=32",
			},
		},
		{
			name:   "renamed",
			reason: "renamed names are used, a name mapped to empty is dropped, others kept",
			env:    full,
			rename: map[string]string{
				"TOOLCERT_LISTEN":      "ADDR",
				"TOOLCERT_MAX_BYTES":   "LIMIT",
				"TOOLCERT_POLICY_FILE": "",
			},
			want: []string{
				"TOOLCERT_UPSTREAM_URL=http://127.0.0.1:4000",
				"ADDR=127.0.0.1:5000",
				"TOOLCERT_AUDIT_FILE=/tmp/audit.jsonl",
				"LIMIT=65536",
				"TOOLCERT_MAX_DEPTH=32",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.env.Vars(tt.rename)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Vars: %s (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}
