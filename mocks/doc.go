// Package mocks provides Upstream, the programmable mock upstream that
// toolcert drives hostile or broken vendor responses from.
//
// One Upstream serves one lane. It reads each request with net/http, then
// hijacks the connection and writes the raw HTTP/1.1 response itself, so it
// can send what an http.ResponseWriter cannot: any reason phrase, headers in
// a chosen order with duplicates, a Content-Length that lies, a body cut
// after N bytes, a reset connection, or nothing at all. Every response ends
// with the connection closed.
//
// The journal is bounded (WithJournalBounds: 10,000 requests, 64 MiB of
// request bodies by default) so that an adapter flooding its upstream
// cannot exhaust the harness's memory; Received still counts every request.
//
// The caller must:
//   - call Close when finished with the Upstream;
//   - call Reset before every scenario, which forgets the program and the
//     journal and stops responses still in flight;
//   - call Settle before asserting on Journal, so that every response the
//     target has read is recorded with what was actually served.
package mocks
