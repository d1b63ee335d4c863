package mocks

import (
	"net/http"

	"github.com/toolcert/toolcert/protocol"
)

// JSON returns a Response with the given status, Content-Type
// application/json and body served byte for byte.
func JSON(status int, body []byte) Response {
	return Response{Status: status, Header: contentType(protocol.ContentTypeJSON), Body: body}
}

// Text returns a Response with the given status, Content-Type
// "text/plain; charset=utf-8" and body.
func Text(status int, body string) Response {
	return Response{Status: status, Header: contentType("text/plain; charset=utf-8"), Body: []byte(body)}
}

// ErrorPage returns a Response with the given status, Content-Type
// "text/html; charset=utf-8" and html as body, the shape of a proxy's or a
// vendor's error page.
func ErrorPage(status int, html string) Response {
	return Response{Status: status, Header: contentType("text/html; charset=utf-8"), Body: []byte(html)}
}

// Generated returns a 200 Response with Content-Type application/json and a
// generated JSON document of exactly size bytes (see Response.Generate).
func Generated(size int64) Response {
	return Response{Status: http.StatusOK, Header: contentType(protocol.ContentTypeJSON), Generate: size}
}

// WithHeader returns r with one more header field appended.
func (r Response) WithHeader(name, value string) Response {
	r.Header = append(append([]HeaderField(nil), r.Header...), HeaderField{Name: name, Value: value})
	return r
}

// WithFault returns r with its Fault replaced by f.
func (r Response) WithFault(f Fault) Response {
	r.Fault = f
	return r
}

// Repeat returns r served n times in a sequence before the next response.
func (r Response) Repeat(n int) Response {
	r.Times = n
	return r
}

// contentType returns a header list holding one Content-Type field.
func contentType(value string) []HeaderField {
	return []HeaderField{{Name: "Content-Type", Value: value}}
}
