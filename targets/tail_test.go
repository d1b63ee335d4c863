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

// TestTailBufferSince: what was written after a mark, as far as the tail
// holds it; a mark of another buffer reads from the start.
func TestTailBufferSince(t *testing.T) {
	b := newTailBuffer(4)
	got, mark := b.since(0)
	if got != "" || mark != 0 {
		t.Fatalf("since(0) of nothing = %q, %d", got, mark)
	}
	b.Write([]byte("ab"))
	if got, mark = b.since(mark); got != "ab" || mark != 2 {
		t.Errorf("since(0) = %q, %d; want ab, 2", got, mark)
	}
	b.Write([]byte("c"))
	if got, mark = b.since(mark); got != "c" || mark != 3 {
		t.Errorf("since(2) = %q, %d; want c, 3", got, mark)
	}
	b.Write([]byte("defgh"))
	if got, mark = b.since(mark); got != "[1 bytes dropped]\nefgh" || mark != 8 {
		t.Errorf("since(3) after 5 bytes past a 4-byte tail = %q, %d", got, mark)
	}
	if got, mark = b.since(-1); got != "" || mark != 8 {
		t.Errorf("since(-1) = %q, %d; want the mark alone", got, mark)
	}
	if got, _ = b.since(99); got != "[4 bytes dropped]\nefgh" {
		t.Errorf("since(99) = %q, want the output from its start, as far as it is kept", got)
	}
}
