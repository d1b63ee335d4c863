package mocks

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// arrival is a request taken into the journal, with the response chosen
// for it and the generation (Reset period) it belongs to.
type arrival struct {
	ctx  context.Context
	rec  *Entry
	resp Response
}

// handle serves one request: read it, journal it, hijack the connection,
// write the raw response and record what was served.
func (u *Upstream) handle(w http.ResponseWriter, r *http.Request) {
	u.flight.add()
	defer u.flight.done()
	a := u.arrive(u.readRequest(w, r))
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		u.finish(a.rec, Served{Fault: FaultWriteError, Err: fmt.Sprintf("hijack: %v", err)})
		return
	}
	c := newRawConn(a.ctx, conn, brw.Reader)
	defer c.close()
	u.finish(a.rec, u.respond(c, a.resp))
}

// readRequest reads r, its body bounded in bytes and time, into an Entry.
func (u *Upstream) readRequest(w http.ResponseWriter, r *http.Request) Entry {
	e := Entry{
		Method:     r.Method,
		Path:       r.URL.Path,
		RawQuery:   r.URL.RawQuery,
		RequestURI: r.RequestURI,
		Host:       r.Host,
		Header:     r.Header.Clone(),
		RemoteAddr: r.RemoteAddr,
	}
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(readBodyTimeout))
	body, size, err := readBody(r.Body, u.cfg.maxRecordedBody, u.cfg.maxDiscard)
	e.Body, e.BodySize, e.BodyTruncated = body, size, size > int64(len(body))
	if err != nil {
		e.ReadErr = err.Error()
	}
	return e
}

// readBody keeps the first keep bytes of body and discards at most discard
// more. It returns the bytes kept (nil if none) and how many were read.
func readBody(body io.Reader, keep int, discard int64) ([]byte, int64, error) {
	kept, err := io.ReadAll(io.LimitReader(body, int64(keep)))
	if len(kept) == 0 {
		kept = nil
	}
	if err != nil {
		return kept, int64(len(kept)), fmt.Errorf("read request body: %w", err)
	}
	n, err := io.CopyN(io.Discard, body, discard+1)
	size := int64(len(kept)) + n
	switch {
	case err == io.EOF:
		return kept, size, nil
	case err != nil:
		return kept, size, fmt.Errorf("read request body: %w", err)
	}
	return kept, size, fmt.Errorf("request body longer than %d bytes: stopped reading", int64(keep)+discard)
}

// arrive journals e and picks its response, both under one lock so that
// sequences are handed out in Seq order.
func (u *Upstream) arrive(e Entry) arrival {
	u.mu.Lock()
	defer u.mu.Unlock()
	resp, route, programmed := u.pick(e.Method, e.Path)
	e.Route, e.Unprogrammed = route, !programmed
	return arrival{ctx: u.gen, rec: u.record(e), resp: resp}
}
