package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/targets"
)

// fakeTable is a connection tracking table of files the test writes.
func fakeTable(t *testing.T, count, limit string) (*Conntrack, func(count string)) {
	t.Helper()
	dir := t.TempDir()
	c := &Conntrack{countFile: filepath.Join(dir, "count"), maxFile: filepath.Join(dir, "max")}
	set := func(count string) {
		if err := os.WriteFile(c.countFile, []byte(count+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	set(count)
	if err := os.WriteFile(c.maxFile, []byte(limit+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return c, set
}

func TestConntrackFullAndRoom(t *testing.T) {
	c, set := fakeTable(t, "960", "1000")
	if !c.Full() {
		t.Fatal("a table 96% full reads as not full")
	}
	if d := c.Describe(); !strings.Contains(d, "960 of 1000") || !strings.Contains(d, "nf_conntrack_max") {
		t.Errorf("Describe() = %q, want the fill and what to raise", d)
	}
	// hysteresis: 92% stays full, below 90% has room
	set("920")
	time.Sleep(conntrackSample)
	if !c.Full() {
		t.Error("a full table that fell to 92% reads as having room: the lanes would start again at once and fill it")
	}
	before := c.Fulls()
	go func() {
		time.Sleep(300 * time.Millisecond)
		set("500")
	}()
	waited := c.Room(context.Background())
	if waited < 250*time.Millisecond || c.Full() {
		t.Errorf("Room waited %v and the table reads full=%v: want a wait until it had room", waited, c.Full())
	}
	if c.Waited() != waited {
		t.Errorf("Waited() = %v after one wait of %v", c.Waited(), waited)
	}
	if c.Fulls() <= before {
		t.Errorf("Fulls went from %d to %d while the table was full", before, c.Fulls())
	}
}

func TestConntrackRoomIsBounded(t *testing.T) {
	c, _ := fakeTable(t, "1000", "1000")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if waited := c.Room(ctx); waited > time.Second {
		t.Errorf("Room waited %v past its context's end", waited)
	}
}

func TestConntrackWithoutTable(t *testing.T) {
	c := &Conntrack{countFile: filepath.Join(t.TempDir(), "none"), maxFile: filepath.Join(t.TempDir(), "none")}
	if c.Full() || c.Room(context.Background()) != 0 {
		t.Error("a machine without a table reads as full")
	}
}

// TestCallNotesAFullTableWithoutWaiting: a call made while the table is
// full is made at once (the wait is the scenario's, before it begins: a
// wait between its calls would let an approval expire) and says that the
// table was full.
func TestCallNotesAFullTableWithoutWaiting(t *testing.T) {
	full, _ := fakeTable(t, "1000", "1000")
	saved := Shared
	Shared = full
	t.Cleanup(func() { Shared = saved })
	up, err := mocks.NewUpstream()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = up.Close() })
	lane := &Lane{Upstream: up}
	time.Sleep(conntrackSample) // the next reading is due
	start := time.Now()
	c, err := lane.Call(context.Background(), "t", nil, time.Second, func(context.Context, targets.Instance) (Output, error) {
		time.Sleep(conntrackSample) // a reading falls within the call
		return Output{}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the call took %v on a full table: it waited for room", d)
	}
	if !c.ConntrackFull {
		t.Error("a call made while the table was full does not say so")
	}
}
