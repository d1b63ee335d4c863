package mocks_test

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/toolcert/toolcert/mocks"
)

func TestGenerateServesExactDocument(t *testing.T) {
	const size = 1 << 20
	u := newUpstream(t)
	program(t, u, "GET", "/big", mocks.Generated(size))
	resp, body, err := get(t, u, "/big")
	if err != nil {
		t.Fatalf("get: %v", err)
	}
	want := `{"padding":"` + strings.Repeat("a", size-14) + `"}`
	if string(body) != want || resp.ContentLength != size || !json.Valid(body) {
		t.Errorf("body: %d bytes, Content-Length %d, valid JSON %v; want the %d-byte padding document",
			len(body), resp.ContentLength, json.Valid(body), size)
	}
	settle(t, u)
	s := u.Journal()[0].Served
	if s.BodyBytes != size || s.BodySHA256 != sum([]byte(want)) || s.IntendedSHA256 != s.BodySHA256 {
		t.Errorf("Served = %+v, want %d bytes with SHA-256 %s", s, size, sum([]byte(want)))
	}
}

func TestGenerateTruncated(t *testing.T) {
	const size = 1 << 20
	u := newUpstream(t)
	program(t, u, "GET", "/big", mocks.Generated(size).WithFault(mocks.Fault{TruncateAfter: 65537}))
	_, body, err := get(t, u, "/big")
	if err == nil || len(body) != 65537 {
		t.Errorf("read %d bytes, error %v; want 65537 then an unexpected EOF", len(body), err)
	}
	settle(t, u)
	full := `{"padding":"` + strings.Repeat("a", size-14) + `"}`
	s := u.Journal()[0].Served
	if s.BodySHA256 != sum([]byte(full[:65537])) || s.IntendedSHA256 != sum([]byte(full)) || s.Fault != mocks.FaultTruncated {
		t.Errorf("Served = %+v, want sums of the first 65537 bytes and of the whole document", s)
	}
}

func TestGenerateGiBClientStopsReading(t *testing.T) {
	const size = 1 << 30
	u := newUpstream(t)
	program(t, u, "GET", "/big", mocks.Generated(size))
	conn := dial(t, u)
	if _, err := io.WriteString(conn, "GET /big HTTP/1.1\r\nHost: mock\r\n\r\n"); err != nil {
		t.Fatalf("write request: %v", err)
	}
	// Read what an adapter with a 64 KiB limit reads, then leave.
	if _, err := io.CopyN(io.Discard, conn, 65537+200); err != nil {
		t.Fatalf("read: %v", err)
	}
	_ = conn.Close()
	settle(t, u)
	s := u.Journal()[0].Served
	if s.Fault != mocks.FaultWriteError || s.BodyBytes >= size || len(s.IntendedSHA256) != 64 || s.BodySHA256 == s.IntendedSHA256 {
		t.Errorf("Served = %+v, want a write error part way and both sums", s)
	}
}
