package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/toolcert/toolcert/protocol"
)

// Audit fills e's upstream request, attempts and raw bytes' hash and
// length from what a [Fetcher] read.
func (f Fetched) Audit(e *protocol.AuditEvent) {
	method := f.Method
	if method == "" {
		method = "GET"
	}
	e.Upstream = &protocol.AuditUpstream{Method: method, URL: f.URL, Status: f.Status}
	e.Attempts = f.Attempts
	sum := sha256.Sum256(f.Raw)
	e.RawSHA256 = hex.EncodeToString(sum[:])
	e.RawBytes = len(f.Raw)
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
func (l *AuditLog) Write(e protocol.AuditEvent) error {
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
