package mocks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestGeneratedShape(t *testing.T) {
	for size := int64(1); size <= 40; size++ {
		b, err := io.ReadAll(&genReader{doc: newGenerated(size)})
		if err != nil || int64(len(b)) != size || !json.Valid(b) {
			t.Errorf("generated %d: %q (%v), want %d bytes of valid JSON", size, b, err, size)
		}
	}
	want := `{"padding":"` + strings.Repeat("a", 86) + `"}`
	if b, _ := io.ReadAll(&genReader{doc: newGenerated(100)}); string(b) != want {
		t.Errorf("generated 100 = %q, want %q", b, want)
	}
}

func TestGeneratedFromOffset(t *testing.T) {
	full, _ := io.ReadAll(Response{Generate: 100}.bodyFrom(0))
	for off := int64(0); off <= 100; off++ {
		b, _ := io.ReadAll(Response{Generate: 100}.bodyFrom(off))
		if string(b) != string(full[off:]) {
			t.Errorf("bodyFrom(%d) = %q, want %q", off, b, full[off:])
		}
	}
}

func TestGenerateGiBInBoundedMemory(t *testing.T) {
	const size = 1 << 30
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n, err := io.CopyBuffer(io.Discard, &genReader{doc: newGenerated(size)}, make([]byte, 64<<10))
	runtime.ReadMemStats(&after)
	if err != nil || n != size {
		t.Fatalf("streamed %d bytes (%v), want %d", n, err, size)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("streaming 1 GiB allocated %d bytes, want under 1 MiB", alloc)
	}
}

func TestRequestBodyPastDiscardBound(t *testing.T) {
	u, err := NewUpstream(WithMaxRecordedBody(8), func(c *config) { c.maxDiscard = 1 << 10 })
	if err != nil {
		t.Fatalf("NewUpstream: %v", err)
	}
	defer u.Close()
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Post(u.URL()+"/r", "text/plain", strings.NewReader(strings.Repeat("x", 1<<20)))
	if err == nil {
		_ = resp.Body.Close()
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := u.Settle(ctx); err != nil {
		t.Fatalf("Settle: %v", err)
	}
	e := u.Journal()[0]
	if len(e.Body) != 8 || e.BodySize != 8+1<<10+1 || e.ReadErr == "" || e.Served.Status != 501 {
		t.Errorf("entry: body %d bytes, size %d, read error %q, status %d; want 8, %d, an error, 501",
			len(e.Body), e.BodySize, e.ReadErr, e.Served.Status, 8+1<<10+1)
	}
}

func TestIntendedSumOfCutGeneratedBody(t *testing.T) {
	u, err := NewUpstream()
	if err != nil {
		t.Fatalf("NewUpstream: %v", err)
	}
	defer u.Close()
	r := Response{Generate: 1 << 20}
	h := sha256.New()
	full, _ := io.ReadAll(r.bodyFrom(0))
	h.Write(full[:1000])
	want := sha256.Sum256(full)
	c := &rawConn{ctx: t.Context()}
	if got := u.intended(c, r, h, 1000); got != hex.EncodeToString(want[:]) {
		t.Errorf("intended from offset 1000 = %s, want %x", got, want)
	}
	if got, ok := u.sums.get(1 << 20); !ok || got != hex.EncodeToString(want[:]) {
		t.Errorf("cached sum = %s (%v), want %x", got, ok, want)
	}
}
