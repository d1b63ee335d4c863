package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/toolcert/toolcert/protocol"
)

// The audit log is the adapter's file: it may be anything (a named pipe, a
// device, a line without end, a gigabyte) and the harness must still go
// on. Every read below is bounded in bytes and in time.
const (
	// maxAuditBytes bounds what the harness reads of an audit log at once:
	// what the adapter wrote since the call began.
	maxAuditBytes = 64 << 20
	// maxAuditLine bounds one line of an audit log.
	maxAuditLine = 4 << 20
	// auditReadTime bounds one read of an audit log: opening, checking and
	// reading it.
	auditReadTime = 2 * time.Second
	// auditPoll is how often the harness looks again for a late audit event.
	auditPoll = 20 * time.Millisecond
)

// ErrNoAudit means the harness has no audit log to read for the target.
var ErrNoAudit = errors.New("the target's audit log is not available to the harness (with --target-url, pass --audit-file)")

// ErrNoAuditEvent is wrapped by the *AuditError of AuditEvent when the
// log holds no event of the call's request id.
var ErrNoAuditEvent = errors.New("no audit event for the request id")

// AuditError is what stops the harness from finding a call's event in an
// audit log: the log is not a regular file, cannot be read within the
// bounds, holds a line that is not a JSON object, or has no event of the
// request id. Its message names the log, the problem and where; a step
// records it as audit evidence.
type AuditError struct {
	// Path is the audit log.
	Path string
	// Offset is the byte offset of the problem, -1 when it is the whole
	// file.
	Offset int64
	// Line numbers the line at Offset from 1, counting from where the read
	// began; 0 when no line is concerned.
	Line int
	// Err is the cause: ErrNoAuditEvent for a missing event, a JSON or an
	// I/O error, or nil.
	Err error

	msg string
}

// Error returns the message: "the audit log PATH ...".
func (e *AuditError) Error() string { return e.msg }

// Unwrap returns the cause.
func (e *AuditError) Unwrap() error { return e.Err }

// auditBudget is a lane's account of the time it waited for audit events
// that never came (docs/protocol.md, "The operator's side"). The zero
// value is a full budget.
type auditBudget struct{ spent atomic.Int64 }

// wait is how long the lane still waits for a call's event: the grace,
// until waits that ended without the event have used it up; then none.
func (b *auditBudget) wait() time.Duration {
	if time.Duration(b.spent.Load()) >= protocol.AuditGrace {
		return 0
	}
	return protocol.AuditGrace
}

// charge books d spent waiting for an event that did not come.
func (b *auditBudget) charge(d time.Duration) { b.spent.Add(int64(d)) }

// AuditEvents returns the events of requestID in the JSON Lines audit log
// at path, from offset from (0 for the whole log), as the log is now. A
// log that does not exist yet holds no event. It returns an *AuditError,
// with the events read before it, for a log that is not a regular file,
// holds more than 64 MiB past from, a line longer than 4 MiB or one that is
// not a JSON object, or cannot be read within 2 s.
func AuditEvents(path string, from int64, requestID string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	r := &auditReader{path: path, from: from, at: from}
	err := r.read(context.Background(), func(l auditLine) bool {
		if l.id == requestID {
			out = append(out, l.raw)
		}
		return false
	})
	if r.timedOut {
		return nil, err // the read still runs: what it found is not ours
	}
	return out, err
}

// AuditEvent returns, raw, the first event of requestID that the lane's
// adapter wrote to its audit log since call c began. It waits for an
// adapter that writes late, as docs/protocol.md says: up to
// protocol.AuditGrace, not at all once the log holds an event of another
// request id dated after c began, and not at all once the lane's calls
// have spent the grace on events that never came. It returns ErrNoAudit
// when the lane has no log, an *AuditError wrapping ErrNoAuditEvent when
// no event came, another *AuditError when the log cannot be read, and the
// context's error when ctx ends first.
func (l *Lane) AuditEvent(ctx context.Context, c *Call, requestID string) (json.RawMessage, error) {
	if l.AuditFile == "" {
		return nil, ErrNoAudit
	}
	s := auditSearch{id: requestID, since: c.Started.Truncate(time.Millisecond)}
	r := &auditReader{path: l.AuditFile, from: c.AuditFrom, at: c.AuditFrom, kept: &l.auditOpen}
	grace, start := l.audit.wait(), time.Now()
	for {
		if err := r.read(ctx, s.visit); err != nil {
			return nil, err
		}
		waited := time.Since(start)
		switch {
		case s.found != nil:
			return s.found, nil
		case s.dated != "":
			return nil, r.missing(s, fmt.Sprintf("not waited for: the log holds an event of request_id %q dated after the call began, so the adapter wrote this call's event before it answered, under another id", s.dated))
		case grace == 0:
			return nil, r.missing(s, fmt.Sprintf("not waited for: this lane's earlier calls have spent the %v the harness waits for late events on events that never came", protocol.AuditGrace))
		case waited >= grace:
			l.audit.charge(waited)
			return nil, r.missing(s, fmt.Sprintf("waited %v", grace))
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(min(auditPoll, grace-waited)):
		}
	}
}

// auditSearch looks for one request id's event among the lines of a call.
type auditSearch struct {
	id    string
	since time.Time // when the call began, to the millisecond
	found json.RawMessage
	// others counts the events of other request ids; dated is the first
	// of them dated since the call began.
	others int
	dated  string
}

// visit takes in one line of the call's part of the log, and reports
// whether it is the event searched for.
func (s *auditSearch) visit(l auditLine) bool {
	if l.id == s.id {
		s.found = l.raw
		return true
	}
	s.others++
	if s.dated == "" && !l.time.IsZero() && !l.time.Before(s.since) {
		s.dated = l.id
	}
	return false
}

// AuditSize is where the audit log at path ends now (0 when there is none
// yet, or it is not a regular file): a call's event is written after it.
func AuditSize(path string) int64 {
	if path == "" {
		return 0
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return st.Size()
}

// auditLine is one line of an audit log that is a JSON object.
type auditLine struct {
	id   string    // its request_id, "" when it has none
	time time.Time // its time, zero when it has none or not RFC 3339
	raw  json.RawMessage
}

// auditReader reads the lines an adapter appends to its audit log from
// where a call began, each read taking up where the last one stopped.
type auditReader struct {
	path string
	from int64 // where the read began
	at   int64 // where the next line to read begins
	line int   // the lines read since from
	// tail is the length of an unfinished line at the end of the log, at
	// the last read.
	tail int64
	// timedOut is set when a read took longer than auditReadTime: that
	// read goes on alone, and the reader must not be used again.
	timedOut bool
	// kept, when not nil, keeps the log open from one read to the next.
	kept *keptFile
}

// read visits each line written since the last read, until visit returns
// true, within auditReadTime. The read runs apart, so that a file system
// that does not answer cannot hold the harness.
func (r *auditReader) read(ctx context.Context, visit func(auditLine) bool) error {
	rctx, cancel := context.WithTimeout(ctx, auditReadTime)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- r.scan(rctx, visit) }()
	select {
	case err := <-done:
		return err
	case <-rctx.Done():
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r.timedOut = true
		return r.fail(-1, 0, nil, "could not be read within %v", auditReadTime)
	}
}

// scan opens the log, checks it, and visits the lines between where the
// last read stopped and where the log ends now.
func (r *auditReader) scan(ctx context.Context, visit func(auditLine) bool) error {
	f, info, err := r.open()
	if f == nil || err != nil {
		return err
	}
	defer r.kept.put(f, info)
	size := info.Size()
	switch {
	case size < r.at:
		return r.fail(-1, 0, nil, "is %d bytes, shorter than the %d the harness knew of: an audit log is appended to, never cut", size, r.at)
	case size-r.from > maxAuditBytes:
		return r.fail(-1, 0, nil, "holds %d bytes past offset %d, more than the %d MiB the harness reads at once", size-r.from, r.from, maxAuditBytes>>20)
	case size == r.at:
		return nil
	}
	// A buffer no larger than what there is to read: a call's events are
	// a few hundred bytes, and a 64 KiB buffer per read is most of a
	// run's garbage. Reads at an offset (pread): no seek.
	buf := int(min(size-r.at+1, 64<<10))
	return r.lines(ctx, bufio.NewReaderSize(io.NewSectionReader(f, r.at, size-r.at), buf), visit)
}

// lines visits the lines of br, the log from r.at on. An unfinished last
// line is left for the next read, unless it is a whole JSON object
// already: nothing can follow it on its line but its newline.
func (r *auditReader) lines(ctx context.Context, br *bufio.Reader, visit func(auditLine) bool) error {
	var buf []byte
	for {
		if ctx.Err() != nil {
			return r.fail(r.at, 0, nil, "could not be read within %v", auditReadTime)
		}
		line, complete, err := nextLine(br, buf[:0])
		switch {
		case errors.Is(err, errLongLine):
			return r.fail(r.at, r.line+1, nil, "has a line longer than %d MiB", maxAuditLine>>20)
		case err != nil:
			return r.fail(r.at, r.line+1, err, "cannot be read: %v", err)
		case len(line) == 0 && !complete:
			r.tail = 0
			return nil
		}
		buf = line
		l, err := parseAuditLine(line)
		if err != nil && !complete {
			r.tail = int64(len(line))
			return nil
		}
		if err != nil {
			return r.fail(r.at, r.line+1, err, "has a line that is not a JSON object (%v)", err)
		}
		r.at, r.tail = r.at+int64(len(line)), 0
		if complete {
			r.at, r.line = r.at+1, r.line+1
		} // else its newline, when it comes, reads as the end of a blank line
		if l != nil && visit(*l) {
			return nil
		}
	}
}

// errLongLine means a line of the log is longer than maxAuditLine.
var errLongLine = errors.New("audit line too long")

// nextLine returns the next line of br, without its newline, appended to
// buf; complete is false when br ended before a newline.
func nextLine(br *bufio.Reader, buf []byte) (line []byte, complete bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf)+len(chunk) > maxAuditLine+1 {
			return nil, false, errLongLine
		}
		buf = append(buf, chunk...)
		switch {
		case err == nil:
			return buf[:len(buf)-1], true, nil
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			return buf, false, nil
		default:
			return nil, false, err
		}
	}
}

// parseAuditLine reads the request id and time of one line; a blank line
// is nil, a line that is not a JSON object an error. A member of another
// type than string reads as absent; of a name given twice, the last counts.
func parseAuditLine(line []byte) (*auditLine, error) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return nil, nil
	}
	if line[0] != '{' {
		return nil, errors.New("it does not start with {")
	}
	if !json.Valid(line) {
		var v any
		return nil, json.Unmarshal(line, &v) // says what is wrong, and where
	}
	l := &auditLine{raw: bytes.Clone(line)}
	id, ts := topLevelStrings(l.raw, "request_id", "time")
	l.id = id
	if ts != "" {
		l.time, _ = time.Parse(time.RFC3339Nano, ts)
	}
	return l, nil
}

// topLevelStrings returns the string values of the members a and b of obj,
// a valid JSON object, "" for one that is absent or not a string. It walks
// the members without decoding the other values: an audit line is read
// once per call, and decoding it whole was most of what reading it cost.
func topLevelStrings(obj []byte, a, b string) (va, vb string) {
	i := skipSpace(obj, 1)
	for i < len(obj) && obj[i] == '"' {
		kEnd := stringEnd(obj, i)
		key := obj[i:kEnd]
		i = skipSpace(obj, kEnd)
		i = skipSpace(obj, i+1) // the colon
		vEnd := valueEnd(obj, i)
		if name := jsonString(key); name == a || name == b {
			v := "" // a value of another type reads as absent
			if obj[i] == '"' {
				v = jsonString(obj[i:vEnd])
			}
			if name == a {
				va = v
			} else {
				vb = v
			}
		}
		i = skipSpace(obj, vEnd)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
		}
	}
	return va, vb
}

// jsonString decodes tok, a valid JSON string with its quotes.
func jsonString(tok []byte) string {
	if bytes.IndexByte(tok, '\\') < 0 && utf8.Valid(tok) {
		return string(tok[1 : len(tok)-1])
	}
	var s string
	_ = json.Unmarshal(tok, &s)
	return s
}

// skipSpace returns the index of the first byte of b at or after i that
// is not JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// stringEnd returns the index just past the JSON string that starts at i.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// valueEnd returns the index just past the valid JSON value that starts
// at i.
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}

// open opens the log if it is a regular file (or a link to one), and
// returns what describes it now (its size); (nil, nil, nil) when it does
// not exist yet. What is not a regular file is refused before it is opened
// (opening a named pipe waits for a writer) and again after, in case the
// path changed in between: the open itself does not wait (O_NONBLOCK).
// The file kept open from the last read is used when the path still leads
// to it.
func (r *auditReader) open() (*os.File, fs.FileInfo, error) {
	lst, err := os.Lstat(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, r.fail(-1, 0, err, "cannot be read: %v", err)
	}
	st := lst
	if lst.Mode()&fs.ModeSymlink != 0 {
		if st, err = os.Stat(r.path); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil
		} else if err != nil {
			return nil, nil, r.fail(-1, 0, err, "cannot be read: %v", err)
		}
	}
	if !st.Mode().IsRegular() {
		return nil, nil, r.notRegular(lst.Mode(), st.Mode())
	}
	if f := r.kept.take(st); f != nil {
		return f, st, nil // the file the path leads to, checked when it was opened
	}
	f, err := os.OpenFile(r.path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, nil, r.fail(-1, 0, err, "cannot be read: %v", err)
	}
	fst, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, r.fail(-1, 0, err, "cannot be read: %v", err)
	}
	if !fst.Mode().IsRegular() {
		f.Close()
		return nil, nil, r.notRegular(fst.Mode(), fst.Mode())
	}
	return f, fst, nil
}

// keptFile keeps a lane's audit log open between reads: a read checks
// that the path still leads to it (same device and inode) and reads it at
// an offset, two system calls where opening, checking and closing it took
// five. A read takes the file and puts it back when done, so a read that
// hangs (a file system that does not answer) keeps its own and the next
// read opens another. The zero value is empty; a nil *keptFile keeps
// nothing.
type keptFile struct {
	mu     sync.Mutex
	f      *os.File
	st     fs.FileInfo
	closed bool
}

// take returns the kept file when it is the one st describes, and leaves
// none kept meanwhile; nil otherwise.
func (k *keptFile) take(st fs.FileInfo) *os.File {
	if k == nil {
		return nil
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	f := k.f
	if f == nil || !os.SameFile(k.st, st) {
		return nil
	}
	k.f = nil
	return f
}

// put keeps f, which st describes, for the next read, closing the one kept
// before (a log the path no longer leads to), or closes f when nothing is
// kept any more.
func (k *keptFile) put(f *os.File, st fs.FileInfo) {
	if k == nil {
		f.Close()
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		f.Close()
		return
	}
	if k.f != nil && k.f != f {
		k.f.Close()
	}
	k.f, k.st = f, st
}

// close closes the kept file; reads after it keep nothing.
func (k *keptFile) close() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.closed = true
	if k.f != nil {
		k.f.Close()
		k.f = nil
	}
}

// notRegular is the error of a log that is not a regular file: link is
// the mode of the path itself, mode that of what it leads to.
func (r *auditReader) notRegular(link, mode fs.FileMode) error {
	what := fileKind(mode)
	if link&fs.ModeSymlink != 0 {
		what = "a symbolic link to " + what
	}
	return r.fail(-1, 0, nil, "is %s, not a regular file", what)
}

// fileKind names the kind of file of mode, with its article.
func fileKind(mode fs.FileMode) string {
	switch {
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeCharDevice != 0:
		return "a character device"
	case mode&fs.ModeDevice != 0:
		return "a device"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "an irregular file"
}

// fail returns the *AuditError of a log that cannot be read: "the audit
// log PATH <problem> at offset N, line L: not read".
func (r *auditReader) fail(offset int64, line int, err error, format string, args ...any) error {
	msg := fmt.Sprintf("the audit log %s %s", r.path, fmt.Sprintf(format, args...))
	if offset >= 0 {
		msg += " at " + r.where(offset, line)
	}
	return &AuditError{Path: r.path, Offset: offset, Line: line, Err: err, msg: msg + ": not read"}
}

// where says where offset is: "offset 120, line 2 after offset 80".
func (r *auditReader) where(offset int64, line int) string {
	s := fmt.Sprintf("offset %d", offset)
	if line > 0 {
		s += fmt.Sprintf(", line %d", line)
		if r.from > 0 {
			s += fmt.Sprintf(" counted from offset %d", r.from)
		}
	}
	return s
}

// missing returns the *AuditError of an event that did not come, saying
// what the log holds instead and how long the harness waited (why).
func (r *auditReader) missing(s auditSearch, why string) error {
	msg := fmt.Sprintf("the audit log %s has no event for request_id %q after offset %d, where it ended when the call began", r.path, s.id, r.from)
	if s.others > 0 {
		msg += fmt.Sprintf("; it holds %d event(s) of other request ids there", s.others)
	}
	if r.tail > 0 {
		msg += fmt.Sprintf("; it ends in an unfinished line at offset %d (%d bytes without a newline)", r.at, r.tail)
	}
	return &AuditError{Path: r.path, Offset: r.from, Err: ErrNoAuditEvent, msg: msg + "; " + why}
}
