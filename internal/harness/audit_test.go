package harness_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/protocol"
)

// writeLog writes an audit log of content and returns its path.
func writeLog(tb testing.TB, content string) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "audit.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestAuditEvents reads logs good and hostile: every line must be a JSON
// object, and what cannot be read is an *AuditError naming the log, the
// problem and where.
func TestAuditEvents(t *testing.T) {
	const ev1, ev2 = `{"request_id":"req.1","gate":"none"}`, `{"request_id":"req.2","gate":"parse"}`
	tests := []struct {
		name    string
		log     string
		from    int64
		want    int    // events of req.1
		wantErr string // in the error's message; "" for none
	}{
		{"every event of an id, blank lines and CRLF allowed", ev1 + "\n" + ev2 + "\r\n\n" + `{"request_id":"req.1","gate":"schema"}` + "\n", 0, 2, ""},
		{"from an offset", ev1 + "\n" + ev1 + "\n", int64(len(ev1) + 1), 1, ""},
		{"an id without events", ev2 + "\n", 0, 0, ""},
		{"an unfinished last line that is a whole object counts", ev1, 0, 1, ""},
		{"an unfinished last line that is not whole is left for later", ev1 + "\n" + `{"request_id":"re`, 0, 1, ""},
		{"garbage after an event", ev1 + "\nnot json at all\n", 0, 1,
			"has a line that is not a JSON object (it does not start with {) at offset 37, line 2: not read"},
		{"garbage counted from the offset", ev1 + "\n" + ev2 + "\n{\"request_id\": 1,}\n", int64(len(ev1) + 1), 0,
			"has a line that is not a JSON object (invalid character '}' looking for beginning of object key string) at offset 75, line 2 counted from offset 37: not read"},
		{"a JSON line that is no object", "[1, 2]\n", 0, 0, "has a line that is not a JSON object (it does not start with {) at offset 0, line 1"},
		{"null", "null\n", 0, 0, "not a JSON object"},
		{"an object and trailing data", ev1 + " x\n", 0, 0, "not a JSON object (invalid character 'x' after top-level value) at offset 0, line 1"},
		{"zeros", strings.Repeat("\x00", 100) + "\n", 0, 0, "not a JSON object"},
		{"a line longer than 4 MiB", strings.Repeat("x", 4<<20+1) + "\n", 0, 0, "has a line longer than 4 MiB at offset 0, line 1: not read"},
		{"an endless line without a newline", strings.Repeat("{", 5<<20), 0, 0, "has a line longer than 4 MiB at offset 0, line 1: not read"},
		{"a log that shrank", ev1 + "\n", 1000, 0, "is 37 bytes, shorter than the 1000 the harness knew of: an audit log is appended to, never cut: not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeLog(t, tt.log)
			got, err := harness.AuditEvents(path, tt.from, "req.1")
			checkAuditErr(t, path, err, tt.wantErr)
			if len(got) != tt.want {
				t.Errorf("%d events of req.1, want %d", len(got), tt.want)
			}
		})
	}
}

// checkAuditErr checks that err is nil when want is "", and otherwise an
// *AuditError whose message names the log at path and holds want.
func checkAuditErr(tb testing.TB, path string, err error, want string) {
	tb.Helper()
	if want == "" {
		if err != nil {
			tb.Errorf("error %v, want none", err)
		}
		return
	}
	var ae *harness.AuditError
	if !errors.As(err, &ae) || ae.Path != path {
		tb.Fatalf("error %v, want an *AuditError of %s", err, path)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "the audit log "+path+" ") || !strings.Contains(msg, want) {
		tb.Errorf("error %q, want it to name the log and say %q", msg, want)
	}
}

// TestAuditEventsRefuseHugeLogs: a log past the byte limit is refused
// before it is read, at once, however big it is.
func TestAuditEventsRefuseHugeLogs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	start := time.Now()
	_, err = harness.AuditEvents(path, 0, "req.1")
	checkAuditErr(t, path, err, "holds 1073741824 bytes past offset 0, more than the 64 MiB the harness reads at once: not read")
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing a 1 GiB log took %v", d)
	}
}

// TestAuditEventsRefuseWhatIsNotAFile: a directory, or a link to one, is
// not read; a log that does not exist yet, or a dangling link, holds no
// event.
func TestAuditEventsRefuseWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "audit.jsonl")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_, err := harness.AuditEvents(dir, 0, "req.1")
	checkAuditErr(t, dir, err, "is a directory, not a regular file: not read")
	_, err = harness.AuditEvents(link, 0, "req.1")
	checkAuditErr(t, link, err, "is a symbolic link to a directory, not a regular file: not read")

	dangling := filepath.Join(dir, "dangling.jsonl")
	if err := os.Symlink(filepath.Join(dir, "none"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "none.jsonl"), dangling} {
		if got, err := harness.AuditEvents(path, 0, "req.1"); err != nil || got != nil {
			t.Errorf("%s: %v, %v; want no event and no error", path, got, err)
		}
	}
	if n := harness.AuditSize(dir); n != 0 {
		t.Errorf("AuditSize of a directory = %d, want 0", n)
	}
}

func TestAuditSize(t *testing.T) {
	path := writeLog(t, "{}\n{}\n")
	if n := harness.AuditSize(path); n != 6 {
		t.Errorf("AuditSize = %d, want 6", n)
	}
	if n := harness.AuditSize(filepath.Join(t.TempDir(), "none")); n != 0 {
		t.Errorf("AuditSize of no log = %d, want 0", n)
	}
}

// call is a call that began now, when the log at path was from bytes long.
func call(path string) *harness.Call {
	return &harness.Call{Started: time.Now(), AuditFrom: harness.AuditSize(path)}
}

// appendLog appends lines to the log at path.
func appendLog(tb testing.TB, path string, lines ...string) {
	tb.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	for _, l := range lines {
		if _, err := f.WriteString(l + "\n"); err != nil {
			tb.Fatal(err)
		}
	}
}

// event is an audit line of id dated at.
func event(id string, at time.Time) string {
	return `{"time":"` + at.UTC().Format("2006-01-02T15:04:05.000Z07:00") + `","request_id":"` + id + `"}`
}

// TestAuditEventFindsOnlyTheCallsEvent: the event written before the
// answer is found at once; one written before the call began is not the
// call's.
func TestAuditEventFindsOnlyTheCallsEvent(t *testing.T) {
	path := writeLog(t, event("req.1", time.Now())+"\n")
	lane := &harness.Lane{AuditFile: path}
	c := call(path)
	appendLog(t, path, event("req.2", time.Now()))
	raw, err := lane.AuditEvent(context.Background(), c, "req.2")
	if err != nil || !strings.Contains(string(raw), `"req.2"`) {
		t.Errorf("AuditEvent = %s, %v; want req.2's event", raw, err)
	}
	start := time.Now()
	_, err = lane.AuditEvent(context.Background(), c, "req.1")
	checkAuditErr(t, path, err, `has no event for request_id "req.1" after offset 57, where it ended when the call began; it holds 1 event(s) of other request ids there; not waited for: the log holds an event of request_id "req.2" dated after the call began`)
	if !errors.Is(err, harness.ErrNoAuditEvent) {
		t.Errorf("error %v does not wrap ErrNoAuditEvent", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a missing event whose call has an event dated after it began took %v", d)
	}
	if _, err := (&harness.Lane{}).AuditEvent(context.Background(), c, "req.1"); err != harness.ErrNoAudit {
		t.Errorf("no log: %v, want ErrNoAudit", err)
	}
}

// TestAuditEventWaitsForALateWriter: an adapter that writes its event
// after it answers, within the grace, passes, also after an event of an
// earlier call (dated before this call began) came late.
func TestAuditEventWaitsForALateWriter(t *testing.T) {
	path := writeLog(t, "")
	lane := &harness.Lane{AuditFile: path}
	earlier := time.Now().Add(-time.Second)
	c := call(path)
	go func() {
		time.Sleep(100 * time.Millisecond)
		appendLog(t, path, event("req.0", earlier)) // an unchecked earlier call's
		time.Sleep(protocol.AuditGrace * 3 / 4)
		appendLog(t, path, event("req.1", time.Now()))
	}()
	raw, err := lane.AuditEvent(context.Background(), c, "req.1")
	if err != nil || !strings.Contains(string(raw), `"req.1"`) {
		t.Errorf("AuditEvent = %s, %v; want the late event", raw, err)
	}
}

// TestAuditEventBudget: a lane waits the grace for an event that never
// comes once; after that it reads the log once per call and says why.
func TestAuditEventBudget(t *testing.T) {
	path := writeLog(t, "")
	lane := &harness.Lane{AuditFile: path}
	start := time.Now()
	_, err := lane.AuditEvent(context.Background(), call(path), "req.1")
	checkAuditErr(t, path, err, `has no event for request_id "req.1" after offset 0, where it ended when the call began; waited 2s`)
	if d := time.Since(start); d < protocol.AuditGrace || d > protocol.AuditGrace+time.Second {
		t.Errorf("the first missing event took %v, want the grace %v", d, protocol.AuditGrace)
	}
	for i := range 3 {
		start := time.Now()
		_, err := lane.AuditEvent(context.Background(), call(path), "req.1")
		checkAuditErr(t, path, err, "not waited for: this lane's earlier calls have spent the 2s the harness waits for late events on events that never came")
		if d := time.Since(start); d > 500*time.Millisecond {
			t.Errorf("missing event %d after the budget took %v", i+2, d)
		}
	}
	other := &harness.Lane{AuditFile: path}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := other.AuditEvent(ctx, call(path), "req.1"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("another lane: %v, want it to wait until its context ends", err)
	}
}

// TestAuditEventEndsWithItsContext: an interrupted run does not wait out
// the grace.
func TestAuditEventEndsWithItsContext(t *testing.T) {
	path := writeLog(t, "")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := (&harness.Lane{AuditFile: path}).AuditEvent(ctx, call(path), "req.1")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("AuditEvent returned %v after it started, want soon after its context ended", d)
	}
}

// TestAuditEventFollowsAReplacedLog: a lane keeps its log open between
// calls, but reads the file the path leads to now: a log the adapter
// rotated (renamed away and started again) is read anew.
func TestAuditEventFollowsAReplacedLog(t *testing.T) {
	path := writeLog(t, event("req.1", time.Now())+"\n")
	lane := &harness.Lane{AuditFile: path}
	if _, err := lane.AuditEvent(context.Background(), &harness.Call{Started: time.Now().Add(-time.Second)}, "req.1"); err != nil {
		t.Fatalf("first read: %v", err)
	}
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(event("req.2", time.Now())+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	appendLog(t, path+".1", event("req.2-old", time.Now()))
	raw, err := lane.AuditEvent(context.Background(), &harness.Call{Started: time.Now().Add(-time.Second)}, "req.2")
	if err != nil || !strings.Contains(string(raw), `"req.2"`) {
		t.Errorf("after the log was replaced: %s, %v; want the new log's event", raw, err)
	}
}
