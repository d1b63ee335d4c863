package gate

import (
	"crypto/rand"
)

const base62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// NewRequestID returns a fresh request id: "req." and 20 base62 characters
// from crypto/rand (about 119 bits). It matches [RequestIDPattern].
func NewRequestID() string {
	return randomID("req.", 20)
}

// randomID returns prefix and n base62 characters from crypto/rand.
func randomID(prefix string, n int) string {
	out := make([]byte, 0, len(prefix)+n)
	out = append(out, prefix...)
	var buf [32]byte
	for len(out) < cap(out) {
		rand.Read(buf[:]) // never returns an error (crypto/rand, Go 1.24+)
		for _, c := range buf {
			if c >= 248 || len(out) == cap(out) { // 248 = 4*62: no modulo bias
				continue
			}
			out = append(out, base62[c%62])
		}
	}
	return string(out)
}
