package gate

import "github.com/toolcert/toolcert/protocol"

// Limits bounds what the adapter accepts from an upstream. The zero value of
// a field means its default; use [DefaultLimits] to see them.
type Limits struct {
	// MaxBytes is the byte limit on one upstream response body.
	MaxBytes int64
	// MaxDepth is the nesting-depth limit of a JSON document: a document
	// whose objects and arrays nest MaxDepth levels deep is accepted, one
	// level more is rejected.
	MaxDepth int
}

// DefaultLimits returns the limits of docs/protocol.md: 65536 bytes, depth 32.
func DefaultLimits() Limits {
	return Limits{MaxBytes: protocol.DefaultMaxBytes, MaxDepth: protocol.DefaultMaxDepth}
}

// withDefaults fills zero or negative fields with their defaults.
func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = protocol.DefaultMaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = protocol.DefaultMaxDepth
	}
	return l
}
