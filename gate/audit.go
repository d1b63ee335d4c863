package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Event is one line of the operator audit log: one per agent call, with the
// fields of docs/protocol.md.
type Event struct {
	// Time is when the call was decided; it is written in UTC with
	// milliseconds.
	Time time.Time `json:"-"`
	// RequestID is the request_id of the envelope the agent got.
	RequestID string `json:"request_id"`
	// Tool is the tool called ("unknown" for a tool the adapter lacks).
	Tool string `json:"tool"`
	// AdapterVersion names the adapter and its version.
	AdapterVersion string `json:"adapter_version"`
	// Gate is the gate that decided; GateNone when accepted.
	Gate Gate `json:"gate"`
	// Reason is the gate's reason; "ok" when accepted.
	Reason string `json:"reason"`
	// Detail is operator-only text: validator message, parse error,
	// upstream status. It never reaches the agent.
	Detail string `json:"detail"`
	// Upstream is the request sent, nil when none was.
	Upstream *Upstream `json:"upstream,omitempty"`
	// Attempts counts the upstream requests sent, 0 when none was.
	Attempts int `json:"attempts"`
	// RawSHA256 is the hex SHA-256 of the bytes read in the deciding
	// attempt; empty (and omitted) when no request was sent.
	RawSHA256 string `json:"raw_sha256,omitempty"`
	// RawBytes is the number of those bytes.
	RawBytes int `json:"raw_bytes"`
	// Decision is the call's authorization record (call side), validated
	// with [ValidateDecision] before it is written; omitted when nil.
	Decision *Decision `json:"decision,omitempty"`
}

// Upstream describes the upstream request of an [Event].
type Upstream struct {
	Method string `json:"method"`
	URL    string `json:"url"`
	// Status is the HTTP status of the deciding attempt; omitted when no
	// response arrived.
	Status int `json:"status,omitempty"`
}

// SetFetched fills Upstream, Attempts, RawSHA256 and RawBytes from what a
// [Fetcher] read.
func (e *Event) SetFetched(f Fetched) {
	method := f.Method
	if method == "" {
		method = "GET"
	}
	e.Upstream = &Upstream{Method: method, URL: f.URL, Status: f.Status}
	e.Attempts = f.Attempts
	sum := sha256.Sum256(f.Raw)
	e.RawSHA256 = hex.EncodeToString(sum[:])
	e.RawBytes = len(f.Raw)
}

// MarshalJSON writes the event with "time" first, in UTC with milliseconds.
func (e Event) MarshalJSON() ([]byte, error) {
	type fields Event // without MarshalJSON
	return json.Marshal(struct {
		Time string `json:"time"`
		fields
	}{e.Time.UTC().Format("2006-01-02T15:04:05.000Z07:00"), fields(e)})
}

// UnmarshalJSON reads an event written by MarshalJSON.
func (e *Event) UnmarshalJSON(b []byte) error {
	type fields Event // without UnmarshalJSON
	var v struct {
		Time string `json:"time"`
		*fields
	}
	v.fields = (*fields)(e)
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("audit event: %w", err)
	}
	if v.Time == "" {
		e.Time = time.Time{}
		return nil
	}
	t, err := time.Parse(time.RFC3339Nano, v.Time)
	if err != nil {
		return fmt.Errorf("audit event time: %w", err)
	}
	e.Time = t
	return nil
}

// AuditLog appends events as JSON Lines to a writer, one Write call per
// line under a mutex, so that concurrent calls never interleave.
type AuditLog struct {
	mu sync.Mutex
	w  io.Writer
	c  io.Closer
}

// NewAuditLog returns an AuditLog writing to w. Close does not close w.
func NewAuditLog(w io.Writer) *AuditLog {
	return &AuditLog{w: w}
}

// OpenAuditLog opens (creating it, mode 0600) the file at path for
// appending. The caller should call Close when finished.
func OpenAuditLog(path string) (*AuditLog, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	return &AuditLog{w: f, c: f}, nil
}

// Write appends e as one line.
func (l *AuditLog) Write(e Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("audit event: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, err := l.w.Write(b); err != nil {
		return fmt.Errorf("write audit event: %w", err)
	}
	return nil
}

// Close closes the file opened by OpenAuditLog; for NewAuditLog it does
// nothing.
func (l *AuditLog) Close() error {
	if l.c == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c.Close()
}
