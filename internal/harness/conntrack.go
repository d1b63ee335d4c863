package harness

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// The kernel's connection tracking (nf_conntrack, loaded wherever Docker
// or a firewall runs) keeps an entry per connection, loopback ones too,
// for as long as TIME_WAIT (120 s by default) after it closed. A run opens
// a few connections per call, so tens of thousands of calls in a couple of
// minutes fill the table, and a full table drops every new connection's
// first packet: the call waits 1, 3, 7 s for the retries, and the adapter
// seems to hang or to lose its upstream. Seen on this project's machine:
// 262,096 entries of 262,144, four lanes hung at once, and false failures
// of the reference. So a scenario and a generated case wait for room
// before they begin (never between their calls: an approval would expire,
// a fresh timestamp go stale), and a call made while the table was full
// says so in its evidence.
const (
	conntrackCount = "/proc/sys/net/netfilter/nf_conntrack_count"
	conntrackMax   = "/proc/sys/net/netfilter/nf_conntrack_max"
	// conntrackSample is how long a reading of the table's fill is used.
	conntrackSample = 100 * time.Millisecond
	// conntrackWait bounds how long a scenario or case waits for room: a
	// table that something else keeps full must not hold the run for ever.
	conntrackWait = 30 * time.Second
)

// Conntrack is the fill of the machine's connection tracking table, read
// at most every 100 ms. The zero value reads the kernel's files; Shared is
// the process's.
type Conntrack struct {
	// countFile and maxFile are the files read, the kernel's when "".
	countFile, maxFile string

	read atomic.Int64 // when the fill was last read, in Unix nanoseconds
	busy atomic.Bool  // a reading is under way
	full atomic.Bool  // at least 95% full at the last reading, until below 90%
	none atomic.Bool  // the machine has no table (or it cannot be read)
	// fulls counts the readings that found the table full.
	fulls        atomic.Int64
	count, limit atomic.Int64
	// waited adds up the time calls waited for room, in nanoseconds.
	waited atomic.Int64
}

// Shared is the process's view of the machine's table: every lane of
// every run in the process reads it.
var Shared = &Conntrack{}

// Full reports whether the table was full at the last reading, reading it
// again when that is older than 100 ms.
func (c *Conntrack) Full() bool {
	if c.none.Load() {
		return false
	}
	now := time.Now().UnixNano()
	if now-c.read.Load() >= int64(conntrackSample) && c.busy.CompareAndSwap(false, true) {
		c.sample()
		c.read.Store(now)
		c.busy.Store(false)
	}
	return c.full.Load()
}

// sample reads the table's fill.
func (c *Conntrack) sample() {
	countFile, maxFile := c.countFile, c.maxFile
	if countFile == "" {
		countFile, maxFile = conntrackCount, conntrackMax
	}
	n, err1 := readCount(countFile)
	m, err2 := readCount(maxFile)
	if err1 != nil || err2 != nil || m <= 0 {
		c.none.Store(true)
		c.full.Store(false)
		return
	}
	c.count.Store(n)
	c.limit.Store(m)
	switch {
	case n >= m-m/20:
		c.full.Store(true)
		c.fulls.Add(1)
	case n < m-m/10:
		c.full.Store(false)
	default:
		if c.full.Load() {
			c.fulls.Add(1)
		}
	}
}

// Fulls counts the readings so far that found the table full: a call
// during which it grew was made while new connections could be dropped.
func (c *Conntrack) Fulls() int64 {
	c.Full()
	return c.fulls.Load()
}

// Room waits, up to 30 s or until ctx ends, until the table has room, and
// returns how long it waited. Call it before a scenario or case sets
// anything up, never between its calls (see the top of this file).
func (c *Conntrack) Room(ctx context.Context) (waited time.Duration) {
	if !c.Full() {
		return 0
	}
	start := time.Now()
	defer func() { c.waited.Add(int64(waited)) }()
	t := time.NewTicker(conntrackSample / 2)
	defer t.Stop()
	for c.Full() && time.Since(start) < conntrackWait {
		select {
		case <-ctx.Done():
			return time.Since(start)
		case <-t.C:
		}
	}
	return time.Since(start)
}

// Waited is how long calls have waited for room so far, added up over
// the process's lanes.
func (c *Conntrack) Waited() time.Duration { return time.Duration(c.waited.Load()) }

// Describe says, for evidence, that the table was full: "the machine's
// connection tracking table (nf_conntrack) was full during the call
// (262096 of 262144 entries) ...".
func (c *Conntrack) Describe() string {
	return fmt.Sprintf("the machine's connection tracking table (nf_conntrack) was full during the call (%d of %d entries at the last reading): "+
		"the kernel drops new connections then, loopback ones too, and retries them after 1, 3, 7 s, so what looks like the target's hang or lost upstream may be the machine's; "+
		"raise net.netfilter.nf_conntrack_max, or lower net.netfilter.nf_conntrack_tcp_timeout_time_wait, and run again",
		c.count.Load(), c.limit.Load())
}

// readCount reads a file holding one decimal number.
func readCount(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
}
