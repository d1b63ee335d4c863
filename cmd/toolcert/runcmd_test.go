package main

import "testing"

// TestReproduceFlags: a reproducer repeats the corpus and target flags,
// each value quoted as reports.Command quotes it.
func TestReproduceFlags(t *testing.T) {
	tests := []struct {
		name string
		f    runFlags
		want string
	}{
		{"built-in", runFlags{}, ""},
		{"command", runFlags{target: targetFlags{cmd: "./adapter --port 0"}}, "--target-cmd './adapter --port 0'"},
		{"corpus first", runFlags{fixtures: "my corpus", target: targetFlags{image: "adapter:dev", profile: "p.json"}},
			"--fixtures 'my corpus' --target-image adapter:dev --profile p.json"},
		{"running adapter", runFlags{target: targetFlags{url: "http://127.0.0.1:8080", upstreamListen: "127.0.0.1:9090", auditFile: "it's.jsonl"}},
			`--target-url http://127.0.0.1:8080 --upstream-listen 127.0.0.1:9090 --audit-file "it's.jsonl"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.reproduceFlags(); got != tt.want {
				t.Errorf("reproduceFlags() = %s, want %s", got, tt.want)
			}
		})
	}
}
