package mocks_test

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolcert/toolcert/mocks"
)

func TestJournalRecordsRequest(t *testing.T) {
	u := newUpstream(t)
	body := []byte(`{"dup":1,"dup":2}`)
	program(t, u, "POST", "/reviews/CR-1", mocks.JSON(201, []byte(`{"ok":true}`)))
	req := "POST /reviews/CR%2D1?a=1&b=%20 HTTP/1.1\r\nHost: upstream.test\r\nX-Trace: one\r\nX-Trace: two\r\n" +
		"Content-Length: 17\r\n\r\n" + string(body)
	if _, err := rawExchange(t, u, req); err != nil {
		t.Fatalf("exchange: %v", err)
	}
	settle(t, u)
	want := []mocks.Entry{{
		Seq:        1,
		Method:     "POST",
		Path:       "/reviews/CR-1",
		RawQuery:   "a=1&b=%20",
		RequestURI: "/reviews/CR%2D1?a=1&b=%20",
		Host:       "upstream.test",
		Header:     http.Header{"X-Trace": {"one", "two"}, "Content-Length": {"17"}},
		Body:       body,
		BodySize:   17,
		Route:      "POST /reviews/CR-1",
		Served: mocks.Served{
			Complete: true, Status: 201, BodyBytes: 11,
			BodySHA256: sum([]byte(`{"ok":true}`)), IntendedSHA256: sum([]byte(`{"ok":true}`)),
		},
	}}
	got := u.Journal()
	if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(mocks.Entry{}, "At", "RemoteAddr")); diff != "" {
		t.Errorf("Journal (-want +got):\n%s", diff)
	}
	if got[0].At.IsZero() || !strings.HasPrefix(got[0].RemoteAddr, "127.0.0.1:") {
		t.Errorf("At = %v, RemoteAddr = %q; want both set", got[0].At, got[0].RemoteAddr)
	}
	got[0].Body[0] = 'X'
	if u.Journal()[0].Body[0] != '{' {
		t.Errorf("Journal returned the mock's own body slice, want a copy")
	}
	if r := u.Requests("POST", "/reviews/CR-1"); len(r) != 1 || len(u.Requests("GET", "/reviews/CR-1")) != 0 {
		t.Errorf("Requests filtered %d entries, want 1 for POST and 0 for GET", len(r))
	}
	u.Reset()
	if j := u.Journal(); len(j) != 0 {
		t.Errorf("Journal after Reset = %v, want empty", j)
	}
}

func TestJournalBoundsRequestBody(t *testing.T) {
	u := newUpstream(t, mocks.WithMaxRecordedBody(16))
	program(t, u, "POST", "/r", mocks.Text(200, "ok"))
	big := bytes.Repeat([]byte("x"), 10<<20)
	c := &http.Client{Timeout: 10 * time.Second}
	resp, err := c.Post(u.URL()+"/r", "application/octet-stream", bytes.NewReader(big))
	if err != nil {
		t.Fatalf("post: %v", err)
	}
	_ = resp.Body.Close()
	settle(t, u)
	e := u.Journal()[0]
	if len(e.Body) != 16 || e.BodySize != int64(len(big)) || !e.BodyTruncated || e.ReadErr != "" {
		t.Errorf("entry kept %d bytes of %d, truncated %v, error %q; want 16 of %d, true, none",
			len(e.Body), e.BodySize, e.BodyTruncated, e.ReadErr, len(big))
	}
}

func TestJournalBoundsEntriesAndBytes(t *testing.T) {
	u := newUpstream(t, mocks.WithJournalBounds(3, 10))
	program(t, u, "POST", "/r", mocks.Text(200, "ok"))
	c := &http.Client{Timeout: 10 * time.Second}
	for range 5 {
		resp, err := c.Post(u.URL()+"/r", "text/plain", strings.NewReader("12345678"))
		if err != nil {
			t.Fatalf("post: %v", err)
		}
		_ = resp.Body.Close()
	}
	settle(t, u)
	type kept struct {
		Body      string
		Truncated bool
	}
	var got []kept
	for _, e := range u.Journal() {
		got = append(got, kept{string(e.Body), e.BodyTruncated})
	}
	want := []kept{{"12345678", false}, {"12", true}, {"", true}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("journal (-want +got):\n%s", diff)
	}
	if n := u.Received(); n != 5 {
		t.Errorf("Received() = %d, want 5: requests past the bounds still count", n)
	}
	u.Reset()
	if n := u.Received(); n != 0 || len(u.Journal()) != 0 {
		t.Errorf("after Reset: Received %d, journal %d entries; want 0 and 0", n, len(u.Journal()))
	}
}

func TestJournalBoundsRejected(t *testing.T) {
	for _, o := range []mocks.Option{mocks.WithJournalBounds(0, 1), mocks.WithJournalBounds(1, -1)} {
		if _, err := mocks.NewUpstream(o); err == nil {
			t.Error("NewUpstream accepted a journal bound out of range")
		}
	}
}

func TestJournalConcurrent(t *testing.T) {
	const n = 40
	u := newUpstream(t)
	program(t, u, "GET", "/r", mocks.Text(503, "busy").Repeat(2), mocks.Text(200, "ok"))
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range n {
		wg.Go(func() {
			codes[i] = statuses(t, u, "/r", 1)[0]
			_ = u.Journal()
		})
	}
	wg.Wait()
	settle(t, u)
	slices.Sort(codes)
	want := slices.Repeat([]int{200}, n)
	want[n-2], want[n-1] = 503, 503
	if diff := cmp.Diff(want, codes); diff != "" {
		t.Errorf("client statuses (-want +got):\n%s", diff)
	}
	j := u.Journal()
	for i, e := range j {
		wantStatus := 200
		if e.Seq <= 2 {
			wantStatus = 503
		}
		if e.Seq != i+1 || e.Served.Status != wantStatus || !e.Served.Complete {
			t.Errorf("entry %d: Seq %d, status %d, complete %v; want Seq %d, status %d, complete",
				i, e.Seq, e.Served.Status, e.Served.Complete, i+1, wantStatus)
		}
	}
	if len(j) != n {
		t.Errorf("journal holds %d entries, want %d", len(j), n)
	}
}

func TestSettleSeesServedRightAfterResponse(t *testing.T) {
	u := newUpstream(t)
	program(t, u, "GET", "/r", mocks.JSON(200, []byte(`{"a":1}`)))
	for i := range 20 {
		if _, _, err := get(t, u, "/r"); err != nil {
			t.Fatalf("get: %v", err)
		}
		settle(t, u)
		if s := u.Journal()[i].Served; !s.Complete || s.BodyBytes != 7 {
			t.Fatalf("request %d: Served = %+v right after Settle, want complete with 7 bytes", i+1, s)
		}
	}
}
