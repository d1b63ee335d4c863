package targets

import (
	"net/http"
	"time"
)

// Output is everything the agent sees of one call. Header keys are in
// canonical form (Go's net/http does not keep the sender's case).
type Output struct {
	// StatusLine is the protocol, code and reason phrase as sent, e.g.
	// "HTTP/1.1 200 OK"; "" when no response arrived.
	StatusLine string
	// StatusCode is the HTTP status code; 0 when no response arrived.
	StatusCode int
	// Header holds every response header.
	Header http.Header
	// Trailer holds the response trailers, when the body was read to its
	// end and the target sent any.
	Trailer http.Header
	// Body holds the body bytes read, at most the client's limit.
	Body []byte
	// Truncated reports that the body was longer than the client's limit;
	// Body then holds its first limit bytes.
	Truncated bool
	// Elapsed is the time from sending the request to the end of reading.
	Elapsed time.Duration
	// FirstByteAfter, StatusAfter, FirstBodyByteAfter and LastByteAfter
	// say when the answer arrived, from sending the request: its first
	// byte, the end of its status line and headers, the first body byte
	// read, the last body byte read. Each is 0 when that never came; all
	// are kept when the call failed or timed out, as is the Body read
	// before. A body dribbled until the call timed out is len(Body) bytes
	// over LastByteAfter - FirstBodyByteAfter.
	FirstByteAfter     time.Duration
	StatusAfter        time.Duration
	FirstBodyByteAfter time.Duration
	LastByteAfter      time.Duration
}
