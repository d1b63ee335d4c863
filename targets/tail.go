package targets

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// logTailBytes bounds what an instance keeps of its adapter's output.
const logTailBytes = 64 << 10

// errorTailBytes bounds the output tail quoted in an error message.
const errorTailBytes = 2 << 10

// errorHeadBytes and errorHeadLines bound the start of the output quoted
// in an error message, when the tail does not hold it.
const (
	errorHeadBytes = 1 << 10
	errorHeadLines = 10
)

// tailBuffer is an io.Writer that keeps the last max bytes written to it,
// and the first errorHeadBytes. It is safe for concurrent use.
type tailBuffer struct {
	mu    sync.Mutex
	head  []byte // the first bytes written, at most errorHeadBytes
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
	if room := errorHeadBytes - len(b.head); room > 0 {
		b.head = append(b.head, p[:min(room, len(p))]...)
	}
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

// describe phrases the output for an error message: "no output", or
// "last output:" and at most errorTailBytes of its end, preceded, when
// those do not hold its start, by "its output began:" and its first lines
// (at most errorHeadLines and errorHeadBytes, cut after a line).
func (b *tailBuffer) describe() string {
	return describeOutput(b.first(), b.last(errorTailBytes))
}

// first returns the start of the output when the last errorTailBytes do
// not hold it: its first lines, at most errorHeadBytes; "" otherwise.
func (b *tailBuffer) first() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.total <= errorTailBytes {
		return ""
	}
	head := b.head[:min(int64(len(b.head)), b.total-errorTailBytes)] // not what the tail quotes
	if i := bytes.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i]
	}
	lines := strings.SplitAfterN(string(head), "\n", errorHeadLines+1)
	return strings.TrimRight(strings.Join(lines[:min(len(lines), errorHeadLines)], ""), "\n")
}

// describeOutput phrases an output's first lines (head, "" when tail
// holds them) and its tail for an error message.
func describeOutput(head, tail string) string {
	tail = strings.TrimRight(tail, "\n")
	switch {
	case tail == "":
		return "no output"
	case head == "":
		return "last output:\n" + tail
	}
	return "its output began:\n" + head + "\nlast output:\n" + tail
}

// since returns what was written after the first mark bytes, as far as
// the kept tail holds it (a note says how much was dropped before it),
// and the count of bytes written so far: the mark of a later call. A
// negative mark returns only that count; a mark past what was written (a
// mark of another buffer) reads from the start.
func (b *tailBuffer) since(mark int64) (string, int64) {
	if mark < 0 {
		b.mu.Lock()
		defer b.mu.Unlock()
		return "", b.total
	}
	tail, total := b.snapshot()
	if mark > total {
		mark = 0
	}
	start := total - int64(len(tail)) // the count of bytes dropped
	if mark >= start {
		return string(tail[mark-start:]), total
	}
	return fmt.Sprintf("[%d bytes dropped]\n%s", start-mark, tail), total
}
