package mocks

import "io"

// generated describes a generated JSON document: head, then fillLen copies
// of fill, then tail.
type generated struct {
	head    string
	fill    byte
	fillLen int64
	tail    string
}

// newGenerated returns the document of exactly size bytes (size > 0).
func newGenerated(size int64) generated {
	const head, tail = `{"padding":"`, `"}`
	switch {
	case size == 1:
		return generated{head: "0"}
	case size < int64(len(head)+len(tail)):
		return generated{head: "{}", fill: ' ', fillLen: size - 2}
	}
	return generated{head: head, fill: 'a', fillLen: size - int64(len(head)+len(tail)), tail: tail}
}

// size returns the document's length in bytes.
func (g generated) size() int64 {
	return int64(len(g.head)) + g.fillLen + int64(len(g.tail))
}

// fillAt copies document bytes from offset off into p, up to the end of
// the region off lies in, and returns how many it copied.
func (g generated) fillAt(p []byte, off int64) int {
	h := int64(len(g.head))
	switch {
	case off < h:
		return copy(p, g.head[off:])
	case off < h+g.fillLen:
		n := min(int64(len(p)), h+g.fillLen-off)
		fillBytes(p[:n], g.fill)
		return int(n)
	case off < g.size():
		return copy(p, g.tail[off-h-g.fillLen:])
	}
	return 0
}

// fillBytes sets every byte of p to c.
func fillBytes(p []byte, c byte) {
	if len(p) == 0 {
		return
	}
	p[0] = c
	for n := 1; n < len(p); n *= 2 {
		copy(p[n:], p[:n])
	}
}

// genReader streams a generated document from offset off.
type genReader struct {
	doc generated
	off int64
}

var _ io.Reader = (*genReader)(nil)

// Read implements io.Reader.
func (r *genReader) Read(p []byte) (int, error) {
	if r.off >= r.doc.size() {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.off < r.doc.size() {
		k := r.doc.fillAt(p[n:], r.off)
		n += k
		r.off += int64(k)
	}
	return n, nil
}
