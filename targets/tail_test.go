package targets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTailBuffer(t *testing.T) {
	tests := []struct {
		name     string
		reason   string
		writes   []string
		want     string
		wantLast string
	}{
		{name: "empty", reason: "nothing written", want: "", wantLast: ""},
		{name: "fits", reason: "under the bound", writes: []string{"ab", "c"}, want: "abc", wantLast: "[...]bc"},
		{name: "exact", reason: "at the bound", writes: []string{"abcd"}, want: "abcd", wantLast: "[...]cd"},
		{
			name: "wraps", reason: "small writes past the bound keep the end",
			writes: []string{"abc", "de", "f"}, want: "[2 earlier bytes dropped]\ncdef", wantLast: "[...]ef",
		},
		{
			name: "one big write", reason: "a write longer than the bound keeps its end",
			writes: []string{"a", "bcdefghij"}, want: "[6 earlier bytes dropped]\nghij", wantLast: "[...]ij",
		},
		{
			name: "many wraps", reason: "the ring wraps more than once",
			writes: []string{"ab", "cd", "ef", "gh", "ijk"}, want: "[7 earlier bytes dropped]\nhijk", wantLast: "[...]jk",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newTailBuffer(4)
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want %d, nil", w, n, err, len(w))
				}
			}
			got := []string{b.String(), b.last(2)}
			if diff := cmp.Diff([]string{tt.want, tt.wantLast}, got); diff != "" {
				t.Errorf("String, last(2): %s (-want +got):\n%s", tt.reason, diff)
			}
		})
	}
}

func TestTailBufferConcurrent(t *testing.T) {
	b := newTailBuffer(64)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 1000 {
			fmt.Fprintf(b, "line %d\n", i)
		}
	}()
	for range 100 {
		_ = b.String()
	}
	<-done
	tail, total := b.snapshot()
	if len(tail) != 64 || !strings.HasSuffix(string(tail), "line 999\n") {
		t.Errorf("tail = %q, want the last 64 bytes ending in line 999", tail)
	}
	if total < 8000 {
		t.Errorf("total = %d, want every byte counted", total)
	}
}
