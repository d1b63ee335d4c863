package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// maxAuditBytes bounds how much of an audit log the harness reads.
const maxAuditBytes = 64 << 20

// auditPoll is how often the harness looks again for a late audit event.
const auditPoll = 20 * time.Millisecond

// ErrNoAudit means the harness has no audit log to read for the target.
var ErrNoAudit = errors.New("the target's audit log is not available to the harness (with --target-url, pass --audit-file)")

// AuditEvents returns the events of requestID in the JSON Lines audit log
// at path, reading from offset from (0 for the whole log) and at most
// 64 MiB. A log that does not exist yet holds no event; a line that is not
// JSON is passed over.
func AuditEvents(path string, from int64, requestID string) ([]json.RawMessage, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open audit log: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(from, io.SeekStart); err != nil {
		return nil, fmt.Errorf("seek audit log: %w", err)
	}
	var out []json.RawMessage
	sc := bufio.NewScanner(io.LimitReader(f, maxAuditBytes))
	sc.Buffer(make([]byte, 0, 4<<10), 4<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		var ev struct {
			RequestID string `json:"request_id"`
		}
		if len(line) > 0 && json.Unmarshal(line, &ev) == nil && ev.RequestID == requestID {
			out = append(out, bytes.Clone(line))
		}
	}
	return out, sc.Err()
}

// AuditEvent waits, up to protocol.AuditGrace, for the first event of
// requestID written to the lane's audit log after offset from, and returns
// it raw, or nil when none came. It returns ErrNoAudit when the lane has no
// readable log.
func (l *Lane) AuditEvent(ctx context.Context, from int64, requestID string) (json.RawMessage, error) {
	if l.AuditFile == "" {
		return nil, ErrNoAudit
	}
	ctx, cancel := context.WithTimeout(ctx, protocol.AuditGrace)
	defer cancel()
	for {
		lines, err := AuditEvents(l.AuditFile, from, requestID)
		if err != nil {
			return nil, err
		}
		if len(lines) > 0 {
			return lines[0], nil
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-time.After(auditPoll):
		}
	}
}

// AuditSize is where the audit log at path ends now (0 when there is none
// yet): a call's event is written after it.
func AuditSize(path string) int64 {
	if path == "" {
		return 0
	}
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return st.Size()
}
