package mocks

import (
	"context"
	"encoding/hex"
	"hash"
	"io"
	"sync"
)

// sumCache remembers the SHA-256 of generated bodies by size, so a large
// generated body is hashed in full once per Upstream. Its zero value is
// ready to use.
type sumCache struct {
	mu sync.Mutex
	m  map[int64]string
}

// get returns the cached sum for size.
func (s *sumCache) get(size int64) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum, ok := s.m[size]
	return sum, ok
}

// put caches sum for size.
func (s *sumCache) put(size int64, sum string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[int64]string{}
	}
	s.m[size] = sum
}

// intended returns the hex SHA-256 of r's full body, given h holding the
// hash of its first n bytes. It returns "" if c's generation ends first.
func (u *Upstream) intended(c *rawConn, r Response, h hash.Hash, n int64) string {
	if n < r.bodyLen() {
		if sum, ok := u.sums.get(r.Generate); ok && r.Generate > 0 {
			return sum
		}
		if _, err := io.Copy(h, ctxReader{ctx: c.ctx, r: r.bodyFrom(n)}); err != nil {
			return ""
		}
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if r.Generate > 0 {
		u.sums.put(r.Generate, sum)
	}
	return sum
}

// ctxReader reads from r until ctx ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

// Read implements io.Reader.
func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
