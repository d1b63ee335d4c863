package gate

import (
	"cmp"
	"errors"
	"sync"
	"testing"
	"time"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// now returns the clock's time.
func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// advance moves the clock by d.
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func TestApprovals(t *testing.T) {
	const tool, hash = "send_email", "h1"
	type step struct {
		op       string // "decide", "redeem" or "wait"
		approve  bool
		tool     string
		hash     string
		subject  string // "" for the session that asked
		wait     time.Duration
		wantErr  error
		wantStat string
	}
	approve := step{op: "decide", approve: true, wantStat: ApprovalApproved}
	redeem := step{op: "redeem", tool: tool, hash: hash}
	tests := []struct {
		name  string
		steps []step
	}{
		{"approved once", []step{approve, redeem}},
		{"replay", []step{approve, redeem, {op: "redeem", tool: tool, hash: hash, wantErr: ErrApprovalUsed}}},
		{"refused", []step{{op: "decide", wantStat: ApprovalRefused}, {op: "redeem", tool: tool, hash: hash, wantErr: ErrApprovalRefused}}},
		{"not yet approved", []step{{op: "redeem", tool: tool, hash: hash, wantErr: ErrApprovalNotApproved}, approve, redeem}},
		{"decided twice", []step{approve, {op: "decide", approve: false, wantErr: ErrApprovalDecided}, redeem}},
		{"other arguments", []step{approve, {op: "redeem", tool: tool, hash: "h2", wantErr: ErrApprovalMismatch}, redeem}},
		{"other tool", []step{approve, {op: "redeem", tool: "request_refund", hash: hash, wantErr: ErrApprovalMismatch}}},
		{"other session", []step{approve, {op: "redeem", tool: tool, hash: hash, subject: "mallory", wantErr: ErrApprovalMismatch}, redeem}},
		{"empty hash", []step{approve, {op: "redeem", tool: tool, wantErr: ErrApprovalMismatch}}},
		{"empty hash never matches", []step{approve, {op: "redeem", tool: tool, hash: "", wantErr: ErrApprovalMismatch}}},
		{"expired before the decision", []step{{op: "wait", wait: time.Second}, {op: "decide", approve: true, wantErr: ErrApprovalExpired}}},
		{"expired before redeeming", []step{approve, {op: "wait", wait: time.Second}, {op: "redeem", tool: tool, hash: hash, wantErr: ErrApprovalExpired}}},
		{"just inside the ttl", []step{approve, {op: "wait", wait: time.Second - time.Nanosecond}, redeem}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &clock{t: time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)}
			a := NewApprovals(time.Second, c.now)
			id := a.Request(Binding{Tool: tool, ArgsHash: hash, Subject: "agent-1"}, "req.AAAAAAAA")
			if !ApprovalIDPattern.MatchString(id) {
				t.Fatalf("id %q does not match %s", id, ApprovalIDPattern)
			}
			for i, s := range tt.steps {
				var err error
				var status string
				switch s.op {
				case "wait":
					c.advance(s.wait)
					continue
				case "decide":
					status, err = a.Decide(id, s.approve)
				case "redeem":
					err = a.Redeem(id, Binding{Tool: s.tool, ArgsHash: s.hash, Subject: cmp.Or(s.subject, "agent-1")})
				}
				if !errors.Is(err, s.wantErr) || (s.wantErr == nil && err != nil) {
					t.Fatalf("step %d %s: err = %v, want %v", i, s.op, err, s.wantErr)
				}
				if status != s.wantStat {
					t.Fatalf("step %d %s: status = %q, want %q", i, s.op, status, s.wantStat)
				}
			}
		})
	}
}

func TestApprovalsUnknown(t *testing.T) {
	a := NewApprovals(0, nil)
	if _, err := a.Decide("apr.AAAAAAAAAAAAAAAAAAAA", true); !errors.Is(err, ErrUnknownApproval) {
		t.Errorf("Decide(unknown) err = %v", err)
	}
	if err := a.Redeem("", Binding{Tool: "send_email", ArgsHash: "h"}); !errors.Is(err, ErrUnknownApproval) {
		t.Errorf("Redeem(\"\") err = %v", err)
	}
	if id1, id2 := a.Request(Binding{Tool: "t", ArgsHash: "h"}, "r"), a.Request(Binding{Tool: "t", ArgsHash: "h"}, "r"); id1 == id2 {
		t.Errorf("two requests share the id %q", id1)
	}
}

func TestApprovalsBounded(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)}
	a := NewApprovals(time.Second, c.now)
	first := a.Request(Binding{Tool: "t", ArgsHash: "h"}, "r")
	for range maxApprovals {
		a.Request(Binding{Tool: "t", ArgsHash: "h"}, "r")
	}
	if len(a.byID) != maxApprovals || len(a.order) != maxApprovals {
		t.Errorf("store holds %d (%d ids), want %d", len(a.byID), len(a.order), maxApprovals)
	}
	if _, err := a.Decide(first, true); !errors.Is(err, ErrUnknownApproval) {
		t.Errorf("the oldest approval is still there: %v", err)
	}
	c.advance(2 * time.Second)
	last := a.Request(Binding{Tool: "t", ArgsHash: "h"}, "r")
	if len(a.byID) != 1 {
		t.Errorf("after two ttl the store holds %d, want 1", len(a.byID))
	}
	if _, err := a.Decide(last, true); err != nil {
		t.Errorf("Decide(last): %v", err)
	}
}

func TestApprovalsConcurrentRedeemOnce(t *testing.T) {
	a := NewApprovals(time.Minute, nil)
	id := a.Request(Binding{Tool: "send_email", ArgsHash: "h"}, "r")
	if _, err := a.Decide(id, true); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for range 16 {
		wg.Go(func() {
			if a.Redeem(id, Binding{Tool: "send_email", ArgsHash: "h"}) == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if ok != 1 {
		t.Errorf("%d redeems succeeded, want 1", ok)
	}
}

func TestArgumentsHash(t *testing.T) {
	a, err := ParseJSON([]byte(`{"to":"a@example.com","subject":"<hi>","n":10}`), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	b, err := ParseJSON([]byte(`{ "n" : 10, "subject":"\u003chi>", "to":"a@example.com" }`), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	c, _ := ParseJSON([]byte(`{"to":"a@example.com","subject":"<hi>","n":11}`), DefaultLimits())
	// sha256 of {"n":10,"subject":"<hi>","to":"a@example.com"}
	const want = "7a57d1e5d315392cb6dfcac11dfbf084a039a929efb7d2a55ae7c3ed3e2ca8dd"
	ha, hb, hc := ArgumentsHash(a), ArgumentsHash(b), ArgumentsHash(c)
	if ha != want || hb != want || hc == want {
		t.Errorf("hashes %s %s %s: want the first two equal, the third different", ha, hb, hc)
	}
	if got := ArgumentsHash(map[string]any{"f": func() {}}); got != "" {
		t.Errorf("ArgumentsHash(func) = %q, want \"\"", got)
	}
}
