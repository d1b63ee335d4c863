package mocks

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// Response is one programmed answer of the Upstream. The zero value is
// "200 OK" with an empty body.
//
// The mock writes, in order: the status line "HTTP/1.1 <Status> <Reason>",
// the Header fields as given, "Content-Length" (unless OmitContentLength is
// set or Header already has Content-Length or Transfer-Encoding, so a
// programmed Content-Length may lie), "Connection: close" (unless Header
// already has Connection), an empty line, then the body. It closes the
// connection afterwards.
type Response struct {
	// Status is the status code, 100 to 999; 0 means 200.
	Status int
	// Reason is the reason phrase, any bytes but CR and LF; "" means
	// http.StatusText(Status), which is "" for unknown codes.
	Reason string
	// Header is written in order; names may repeat.
	Header []HeaderField
	// Body is served byte for byte: duplicate members, NaN and invalid
	// UTF-8 survive.
	Body []byte
	// Generate, if > 0, replaces Body with a generated valid JSON document
	// of exactly Generate bytes, streamed without holding it in memory:
	// {"padding":"aaa...a"} from 14 bytes up, "{}" followed by spaces for 2
	// to 13 bytes, and "0" for 1 byte.
	Generate int64
	// OmitContentLength sends a close-delimited body.
	OmitContentLength bool
	// Times is how often this response is served in a sequence before the
	// next one takes over; 0 means once. The last response of a sequence
	// repeats forever.
	Times int
	// Fault breaks the delivery on purpose.
	Fault Fault
}

// HeaderField is one header line of a Response.
type HeaderField struct {
	Name, Value string
}

// Validate reports whether r can be served as written. Its errors wrap
// ErrInvalidResponse. Program and Fallback call it for every Response.
func (r Response) Validate() error {
	if err := r.validateHead(); err != nil {
		return err
	}
	switch {
	case r.Generate < 0:
		return invalidf("generate %d is negative", r.Generate)
	case r.Generate > 0 && len(r.Body) > 0:
		return invalidf("both body and generate are set")
	case r.Times < 0:
		return invalidf("times %d is negative", r.Times)
	}
	return r.Fault.validate(r.bodyLen())
}

// validateHead checks what goes into the status line and header fields.
func (r Response) validateHead() error {
	if r.Status != 0 && (r.Status < 100 || r.Status > 999) {
		return invalidf("status %d is not three digits", r.Status)
	}
	if strings.ContainsAny(r.Reason, "\r\n") {
		return invalidf("reason phrase contains CR or LF")
	}
	for i, h := range r.Header {
		if h.Name == "" || strings.ContainsAny(h.Name, "\r\n:") {
			return invalidf("header %d: name %q is empty or holds CR, LF or colon", i, h.Name)
		}
		if strings.ContainsAny(h.Value, "\r\n") {
			return invalidf("header %d (%s): value contains CR or LF", i, h.Name)
		}
	}
	return nil
}

// invalidf formats a Validate error wrapping ErrInvalidResponse.
func invalidf(format string, args ...any) error {
	return fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), ErrInvalidResponse)
}

// status returns the status code to send.
func (r Response) status() int {
	if r.Status == 0 {
		return http.StatusOK
	}
	return r.Status
}

// times returns how often r is served before its sequence moves on.
func (r Response) times() int {
	return max(r.Times, 1)
}

// bodyLen returns the length of the full intended body.
func (r Response) bodyLen() int64 {
	if r.Generate > 0 {
		return r.Generate
	}
	return int64(len(r.Body))
}

// bodyFrom returns the intended body from byte offset off on.
func (r Response) bodyFrom(off int64) io.Reader {
	if r.Generate > 0 {
		return &genReader{doc: newGenerated(r.Generate), off: off}
	}
	return bytes.NewReader(r.Body[min(off, int64(len(r.Body))):])
}

// head returns the status line and header block, blank line included.
func (r Response) head() []byte {
	reason := r.Reason
	if reason == "" {
		reason = http.StatusText(r.status())
	}
	b := make([]byte, 0, 256)
	b = fmt.Appendf(b, "HTTP/1.1 %03d %s\r\n", r.status(), reason)
	for _, h := range r.Header {
		b = append(append(append(append(b, h.Name...), ": "...), h.Value...), "\r\n"...)
	}
	if !r.OmitContentLength && !r.hasHeader("Content-Length") && !r.hasHeader("Transfer-Encoding") {
		b = append(append(append(b, "Content-Length: "...), strconv.FormatInt(r.bodyLen(), 10)...), "\r\n"...)
	}
	if !r.hasHeader("Connection") {
		b = append(b, "Connection: close\r\n"...)
	}
	return append(b, "\r\n"...)
}

// selfDelimited reports whether r, served whole, tells the client where
// it ends: the mock's own Content-Length and Connection: close, no
// truncation. A client then closes its side first once it has read it.
func (r Response) selfDelimited() bool {
	return !r.OmitContentLength && r.Fault.TruncateAfter == 0 &&
		!r.hasHeader("Content-Length") && !r.hasHeader("Transfer-Encoding") && !r.hasHeader("Connection")
}

// hasHeader reports whether the program sets a header named name.
func (r Response) hasHeader(name string) bool {
	for _, h := range r.Header {
		if strings.EqualFold(strings.TrimSpace(h.Name), name) {
			return true
		}
	}
	return false
}

// clone returns r with its own copies of Header and Body.
func (r Response) clone() Response {
	r.Header = append([]HeaderField(nil), r.Header...)
	r.Body = bytes.Clone(r.Body)
	return r
}
