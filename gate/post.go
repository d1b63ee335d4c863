package gate

import (
	"bytes"
	"context"
	"net/http"

	"github.com/toolcert/toolcert/protocol"
)

// Post sends one POST of body to url with the header fields of header
// (User-Agent is the fetcher's) and returns what it read. A POST may have
// acted, so it is never retried: Attempts is 1 once a request was sent.
// The deadline, read timeout and byte limit are the fetcher's, as for
// [Fetcher.Get]. Any 2xx status returns a nil error when the body fits the
// byte limit; a 2xx whose body is cut or too long returns the transport
// rejection with Status still set, so the caller can tell that the
// upstream acted. Every other status is the rejection Get gives it
// (status_404, status_4xx, status_429, status_5xx, unexpected_status).
func (f *Fetcher) Post(ctx context.Context, url string, body []byte, header http.Header) (Fetched, error) {
	ctx, cancel := context.WithTimeout(ctx, f.s.deadline)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return Fetched{URL: url, Method: http.MethodPost}, Reject(protocol.GateTransport, protocol.ReasonConnection, "build request: %w", err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	out, err := f.send(ctx, req, postStatusFault)
	out.Attempts = 1
	return out, err
}

// postStatusFault returns nil for every 2xx status and the transport
// rejection of [statusFault] for the others.
func postStatusFault(resp *http.Response) error {
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	return statusFault(resp)
}
