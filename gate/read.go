package gate

import (
	"bytes"
	"io"
	"math"

	"github.com/toolcert/toolcert/protocol"
)

// ReadLimited reads r until EOF but at most maxBytes+1 bytes. It returns the
// bytes read in every case, so that the caller can hash them. When r holds
// more than maxBytes bytes the error is a *Rejection{protocol.GateTransport,
// "byte_limit"} and the bytes are the first maxBytes+1; a read error is
// returned as is (not wrapped in a Rejection) so the caller can classify it.
// A maxBytes of zero or less means [protocol.DefaultMaxBytes].
func ReadLimited(r io.Reader, maxBytes int64) ([]byte, error) {
	if maxBytes <= 0 {
		maxBytes = protocol.DefaultMaxBytes
	}
	var buf bytes.Buffer
	limit := maxBytes
	if limit < math.MaxInt64 {
		limit++
	}
	_, err := buf.ReadFrom(io.LimitReader(r, limit))
	raw := buf.Bytes()
	if err != nil {
		return raw, err
	}
	if int64(len(raw)) > maxBytes {
		return raw, Reject(protocol.GateTransport, protocol.ReasonByteLimit, "body exceeds %d bytes", maxBytes)
	}
	return raw, nil
}
