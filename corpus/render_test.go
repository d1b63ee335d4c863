package corpus

import (
	"errors"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func vars() Vars {
	return Vars{
		Now:       time.Date(2026, 11, 29, 16, 0, 0, 500, time.UTC),
		Freshness: 5 * time.Minute,
		Skew:      30 * time.Second,
		Canary:    func(name, where string) string { return "tc-" + name },
	}
}

func TestRender(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no placeholder keeps bytes", "{\"a\":\"\xff\"}", "{\"a\":\"\xff\"}"},
		{"canary", `{"m":"{{canary:msg}}"}`, `{"m":"tc-msg"}`},
		{"now", `{{now}}`, "2026-11-29T16:00:00Z"},
		{"now minus", `{{now-90s}}`, "2026-11-29T15:58:30Z"},
		{"now plus", `{{now+1h}}`, "2026-11-29T17:00:00Z"},
		{"stale is one minute past the window", `{{stale}}`, "2026-11-29T15:54:00Z"},
		{"future is one minute past the skew", `{{future}}`, "2026-11-29T16:01:30Z"},
		{"unterminated is left alone", `{"a":"{{x`, `{"a":"{{x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Render([]byte(tt.in), "t", vars())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, string(got)); diff != "" {
				t.Errorf("Render mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRenderRejectsUnknown(t *testing.T) {
	for _, in := range []string{"{{nope}}", "{{canary:}}", "{{now-xyz}}"} {
		if _, err := Render([]byte(in), "t", vars()); !errors.Is(err, ErrPlaceholder) {
			t.Errorf("Render(%q) error = %v, want ErrPlaceholder", in, err)
		}
	}
}

func TestFixture(t *testing.T) {
	c := New(fstest.MapFS{"a/b.json": {Data: []byte("x")}})
	if b, err := c.Fixture("a/b.json"); err != nil || string(b) != "x" {
		t.Errorf("Fixture = %q, %v", b, err)
	}
	if _, err := c.Fixture("../etc/passwd"); err == nil {
		t.Error("Fixture outside the corpus succeeded")
	}
}
