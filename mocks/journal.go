package mocks

import (
	"bytes"
	"net/http"
	"strings"
	"time"
)

// Entry is one request the Upstream received, with what it served.
type Entry struct {
	// Seq numbers requests from 1 since the last Reset, in the order they
	// were fully read; responses from a sequence are handed out in Seq order.
	Seq int
	// Method, Path (decoded) and RawQuery are those of the request line;
	// RequestURI is its target exactly as sent.
	Method, Path, RawQuery, RequestURI string
	// Host is the request's Host header.
	Host string
	// Header holds the request header fields (Host excluded).
	Header http.Header
	// Body holds the first bytes of the request body, at most the max
	// recorded (WithMaxRecordedBody); nil when empty.
	Body []byte
	// BodySize counts the request body bytes read; BodyTruncated is set
	// when Body holds fewer.
	BodySize      int64
	BodyTruncated bool
	// ReadErr says why reading the request body failed or stopped early.
	ReadErr string
	// RemoteAddr is the client end of the connection the request came on.
	RemoteAddr string
	// At is when the request was fully read.
	At time.Time
	// Route is the programmed route that answered ("GET /reviews/CR-1"),
	// a side route ("side GET /api", SideRoutePrefix), FallbackRoute when
	// the fallback did, "" when nothing was programmed.
	Route string
	// Unprogrammed is set when no route and no fallback matched; the
	// request was answered 501.
	Unprogrammed bool
	// Served is what the mock actually sent. It is filled in when the
	// response finished or failed; call Upstream.Settle first.
	Served Served
}

// FallbackRoute is Entry.Route for requests answered by the fallback.
const FallbackRoute = "*"

// Served is what the Upstream actually sent for one request.
type Served struct {
	// Complete is set once the response finished or failed; the other
	// fields are meaningful only then.
	Complete bool
	// Status is the status code written, 0 when nothing was written.
	Status int
	// BodySHA256 is the hex SHA-256 of the body bytes actually written
	// (after truncation or a failed write); BodyBytes counts them.
	BodySHA256 string
	BodyBytes  int64
	// IntendedSHA256 is the hex SHA-256 of the full body the program meant
	// to send; "" if the mock was Reset or Closed before it was computed.
	IntendedSHA256 string
	// Fault names what happened: one of the Fault* constants.
	Fault string
	// Err is the write error, if any.
	Err string
}

// Served.Fault values, from most to least decisive.
const (
	// FaultAborted means the mock was Reset or Closed before the response ended.
	FaultAborted = "aborted"
	// FaultClientGone means the client closed the connection while the mock
	// was waiting (delay or dribble).
	FaultClientGone = "client_gone"
	// FaultWriteError means a write failed (see Served.Err).
	FaultWriteError = "write_error"
	// FaultReset means the connection was reset without a byte written.
	FaultReset = "reset"
	// FaultEmpty means the connection was closed without a byte written.
	FaultEmpty = "empty"
	// FaultTruncated means the body was cut after Fault.TruncateAfter bytes.
	FaultTruncated = "truncated"
	// FaultDribbled means the body was written whole, in chunks.
	FaultDribbled = "dribbled"
	// FaultDelayed means the response was written whole, after a delay.
	FaultDelayed = "delayed"
	// FaultNone means the response was written whole, at once.
	FaultNone = ""
)

// Journal returns a copy of the requests received since the last Reset, in
// Seq order, within the journal's bounds (see [Upstream.Received] for the
// full count). Call Settle first so that Served is filled in.
func (u *Upstream) Journal() []Entry {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make([]Entry, len(u.journal))
	for i, e := range u.journal {
		out[i] = e.clone()
	}
	return out
}

// Requests returns the Journal entries for method and path (decoded, no
// query), in Seq order.
func (u *Upstream) Requests(method, path string) []Entry {
	var out []Entry
	for _, e := range u.Journal() {
		if e.Method == method && e.Path == path {
			out = append(out, e)
		}
	}
	return out
}

// Received counts the requests received since the last Reset, including
// those past the journal's bounds (WithJournalBounds) that Journal does not
// hold.
func (u *Upstream) Received() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.seq
}

// SideReceived counts, among Received, the requests a side route answered
// (see [Upstream.Side]): the client's own, such as its discovery, not
// attempts of a tool's call.
func (u *Upstream) SideReceived() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.sideSeq
}

// Side reports whether e was answered by a side route.
func (e Entry) Side() bool { return strings.HasPrefix(e.Route, SideRoutePrefix) }

// record numbers e and appends it to the journal, within the journal's
// bounds, and returns where it is kept so that finish can fill in Served
// (an entry past the bounds is numbered but kept nowhere). The caller
// holds u.mu.
func (u *Upstream) record(e Entry) *Entry {
	u.seq++
	e.Seq = u.seq
	if e.Side() {
		u.sideSeq++
	}
	e.At = time.Now()
	if room := u.cfg.maxJournalBytes - u.bodyBytes; int64(len(e.Body)) > room {
		e.Body, e.BodyTruncated = e.Body[:max(room, 0)], true
		if len(e.Body) == 0 {
			e.Body = nil
		}
	}
	rec := &e
	if len(u.journal) < u.cfg.maxEntries {
		u.bodyBytes += int64(len(e.Body))
		u.journal = append(u.journal, rec)
	}
	return rec
}

// finish stores what was served for rec. After a Reset rec is no longer in
// the journal and the update is dropped with it.
func (u *Upstream) finish(rec *Entry, s Served) {
	s.Complete = true
	u.mu.Lock()
	rec.Served = s
	u.mu.Unlock()
}

// clone returns e with its own Header and Body.
func (e Entry) clone() Entry {
	e.Header = e.Header.Clone()
	e.Body = bytes.Clone(e.Body)
	return e
}
