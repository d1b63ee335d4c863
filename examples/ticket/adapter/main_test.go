package main

import (
	"io"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/gate"
)

func TestLoadConfig(t *testing.T) {
	defaults := config{
		upstreamURL: "http://127.0.0.1:9",
		listen:      "127.0.0.1:8080",
		limits:      gate.Limits{MaxBytes: 65536, MaxDepth: 32},
		maxAttempts: 3,
		deadline:    2 * time.Second,
		readTimeout: 400 * time.Millisecond,
		freshness:   5 * time.Minute,
		futureSkew:  30 * time.Second,
	}
	tests := []struct {
		name    string
		args    []string
		env     map[string]string
		want    func(c *config)
		wantErr bool
	}{
		{name: "protocol defaults", want: func(*config) {}},
		{
			name: "limits from the profile's variables",
			args: []string{"--forward-body"},
			env:  map[string]string{"TOOLCERT_MAX_BYTES": "8192", "TOOLCERT_DEADLINE": "1s", "TOOLCERT_LISTEN": "127.0.0.1:1"},
			want: func(c *config) {
				c.limits.MaxBytes, c.deadline, c.listen, c.forwardBody = 8192, time.Second, "127.0.0.1:1", true
			},
		},
		{name: "no upstream", env: map[string]string{"TOOLCERT_UPSTREAM_URL": ""}, wantErr: true},
		{name: "limit not a number", env: map[string]string{"TOOLCERT_MAX_DEPTH": "deep"}, wantErr: true},
		{name: "limit not positive", env: map[string]string{"TOOLCERT_MAX_ATTEMPTS": "0"}, wantErr: true},
		{name: "duration without unit", env: map[string]string{"TOOLCERT_FRESHNESS": "300"}, wantErr: true},
		{name: "unknown flag", args: []string{"--leak-more"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"TOOLCERT_UPSTREAM_URL": defaults.upstreamURL}
			for k, v := range tt.env {
				env[k] = v
			}
			got, err := loadConfig(tt.args, func(k string) string { return env[k] }, io.Discard)
			if (err != nil) != tt.wantErr {
				t.Fatalf("loadConfig: err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			want := defaults
			tt.want(&want)
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(config{})); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}
