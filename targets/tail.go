package targets

import (
	"fmt"
	"sync"
)

// logTailBytes bounds what an instance keeps of its adapter's output.
const logTailBytes = 64 << 10

// errorTailBytes bounds the output tail quoted in an error message.
const errorTailBytes = 2 << 10

// tailBuffer is an io.Writer that keeps the last max bytes written to it.
// It is safe for concurrent use.
type tailBuffer struct {
	mu    sync.Mutex
	ring  []byte // len(ring) == max once full
	next  int    // where the next byte goes once full
	max   int
	total int64
}

func newTailBuffer(max int) *tailBuffer {
	return &tailBuffer{max: max}
}

// Write keeps the tail of p; it never fails.
func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(p)
	b.total += int64(n)
	if len(p) > b.max {
		p = p[len(p)-b.max:]
	}
	if room := b.max - len(b.ring); room > 0 {
		k := min(room, len(p))
		b.ring = append(b.ring, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		k := copy(b.ring[b.next:], p)
		p = p[k:]
		b.next = (b.next + k) % b.max
	}
	return n, nil
}

// snapshot returns the kept tail in order and the count of bytes written.
func (b *tailBuffer) snapshot() ([]byte, int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]byte, 0, len(b.ring))
	out = append(out, b.ring[b.next:]...)
	return append(out, b.ring[:b.next]...), b.total
}

// String returns the kept tail, preceded by a note when earlier output was
// dropped.
func (b *tailBuffer) String() string {
	tail, total := b.snapshot()
	if dropped := total - int64(len(tail)); dropped > 0 {
		return fmt.Sprintf("[%d earlier bytes dropped]\n%s", dropped, tail)
	}
	return string(tail)
}

// last returns at most n bytes of the end of the kept tail.
func (b *tailBuffer) last(n int) string {
	tail, _ := b.snapshot()
	if len(tail) > n {
		return "[...]" + string(tail[len(tail)-n:])
	}
	return string(tail)
}
