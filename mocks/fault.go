package mocks

import "time"

// Fault breaks the delivery of a Response on purpose. The zero value
// delivers it whole and at once. Faults combine: a delay comes first, then
// Reset or Empty, or else the head and a dribbled or truncated body.
type Fault struct {
	// DelayHeaders waits this long before writing anything. The wait ends
	// early when the client goes away or the mock is Reset or Closed; then
	// the connection is closed without a byte.
	DelayHeaders time.Duration
	// DribbleChunk, if > 0, writes the body this many bytes at a time ...
	DribbleChunk int
	// ... waiting DribbleEvery between chunks. Dribbling stops when a write
	// fails, the client goes away, or the mock is Reset or Closed.
	DribbleEvery time.Duration
	// TruncateAfter, if > 0, writes the head (with the full Content-Length)
	// and only this many body bytes, then closes. It must be less than the
	// body length.
	TruncateAfter int64
	// Reset reads the request, then resets the TCP connection (RST) without
	// writing.
	Reset bool
	// Empty reads the request, then closes the connection (FIN) without
	// writing.
	Empty bool
}

// validate checks f against a body of bodyLen bytes.
func (f Fault) validate(bodyLen int64) error {
	switch {
	case f.DelayHeaders < 0 || f.DribbleEvery < 0:
		return invalidf("fault durations must not be negative")
	case f.DribbleChunk < 0 || f.TruncateAfter < 0:
		return invalidf("fault sizes must not be negative")
	case f.DribbleEvery > 0 && f.DribbleChunk == 0:
		return invalidf("dribble interval without a dribble chunk")
	case f.Reset && f.Empty:
		return invalidf("fault is both reset and empty")
	case (f.Reset || f.Empty) && (f.DribbleChunk > 0 || f.TruncateAfter > 0):
		return invalidf("reset or empty fault writes no body to dribble or truncate")
	case f.TruncateAfter > 0 && f.TruncateAfter >= bodyLen:
		return invalidf("truncate after %d bytes of a %d-byte body", f.TruncateAfter, bodyLen)
	}
	return nil
}
