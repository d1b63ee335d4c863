package targets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Bounds on what is read of another process's /proc files.
const (
	maxEnviron     = 1 << 20
	maxCmdline     = 4 << 10
	maxDescription = 200
)

// procKey names one process: a pid and its start time, so that a pid the
// kernel gave to a new process is not taken for the old one.
type procKey struct {
	pid   int
	start uint64 // clock ticks after boot
}

// procInfo is what /proc/<pid>/stat says of one process.
type procInfo struct {
	procKey
	ppid, pgid int
	state      byte // R, S, D, Z (zombie), T, X, ...
}

// dead reports whether the process has exited and waits to be reaped.
func (p procInfo) dead() bool { return p.state == 'Z' || p.state == 'X' }

// readStat reads /proc/<pid>/stat.
func readStat(pid int) (procInfo, error) {
	b, err := os.ReadFile(procPath(pid, "stat"))
	if err != nil {
		return procInfo{}, err
	}
	return parseStat(b)
}

// parseStat parses a line of /proc/<pid>/stat: "pid (comm) state ppid pgrp
// session ... starttime ...", where comm may hold spaces and parentheses.
func parseStat(b []byte) (procInfo, error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 1 || end < open || end+2 > len(b) {
		return procInfo{}, fmt.Errorf("stat %q: no command name", b)
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:open])))
	if err != nil {
		return procInfo{}, fmt.Errorf("stat %q: %w", b, err)
	}
	// After the name: state (field 3), ppid, pgrp, ..., starttime (22).
	f := strings.Fields(string(b[end+2:]))
	if len(f) < 20 || len(f[0]) != 1 {
		return procInfo{}, fmt.Errorf("stat %q: too few fields", b)
	}
	p := procInfo{procKey: procKey{pid: pid}, state: f[0][0]}
	var errs [3]error
	p.ppid, errs[0] = strconv.Atoi(f[1])
	p.pgid, errs[1] = strconv.Atoi(f[2])
	p.start, errs[2] = strconv.ParseUint(f[19], 10, 64)
	if err := errors.Join(errs[:]...); err != nil {
		return procInfo{}, fmt.Errorf("stat %q: %w", b, err)
	}
	return p, nil
}

// procPath returns /proc/<pid>/<name>.
func procPath(pid int, name string) string {
	return "/proc/" + strconv.Itoa(pid) + "/" + name
}

// scanProcs reads the stat of every process. Processes that end while it
// reads are left out.
func scanProcs() (map[int]procInfo, error) {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	defer dir.Close()
	names, err := dir.Readdirnames(-1)
	if err != nil {
		return nil, fmt.Errorf("list processes: %w", err)
	}
	table := make(map[int]procInfo, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if p, err := readStat(pid); err == nil {
			table[pid] = p
		}
	}
	return table, nil
}

// alive reports whether k still runs (or waits to be reaped).
func (k procKey) alive() bool {
	p, err := readStat(k.pid)
	return err == nil && p.start == k.start
}

// readBounded reads at most max bytes of a file.
func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

// describe returns "pid N: command line" for evidence, the command line
// quoted as SplitCommand reads it and clipped; the kernel's name of the
// process in brackets when it has no command line (a zombie).
func describe(pid int) string {
	raw, _ := readBounded(procPath(pid, "cmdline"), maxCmdline)
	var words []string
	for w := range strings.SplitSeq(strings.TrimRight(string(raw), "\x00"), "\x00") {
		if w != "" {
			words = append(words, quoteWord(w))
		}
	}
	line := strings.Join(words, " ")
	if line == "" {
		comm, _ := readBounded(procPath(pid, "comm"), 64)
		line = "[" + strings.TrimSpace(string(comm)) + "]"
	}
	if len(line) > maxDescription {
		line = line[:maxDescription] + "..."
	}
	return fmt.Sprintf("pid %d: %s", pid, line)
}

// procTree finds, on this host, the processes of one instance: its root
// (the process the harness or the Docker engine started), the root's
// descendants, the members of the root's process group when the root leads
// one of its own, the processes the harness adopted that carry the lane's
// environment markers, their descendants, and every process it has seen
// as the instance's before (a child that the root's death left to the
// harness is still the instance's).
type procTree struct {
	root    procKey
	group   bool     // root leads a process group of the instance's own
	markers []string // environment entries only the instance's processes carry
	self    int      // the harness's pid

	mu    sync.Mutex
	known map[procKey]string // every process seen as the instance's, described
}

// newProcTree returns the tree of the process pid, which must not have been
// reaped yet (its start time is read now). group says that it leads a
// process group of its own; markers are laneMarkers, nil for none.
func newProcTree(pid int, group bool, markers []string) (*procTree, error) {
	p, err := readStat(pid)
	if err != nil {
		return nil, fmt.Errorf("read process %d: %w", pid, err)
	}
	return &procTree{root: p.procKey, group: group, markers: markers, self: os.Getpid(), known: map[procKey]string{}}, nil
}

// members returns the processes of table that are the instance's.
func (t *procTree) members(table map[int]procInfo) map[int]procInfo {
	in := map[int]procInfo{}
	var queue []int
	add := func(p procInfo) {
		if _, ok := in[p.pid]; !ok && p.pid != t.self {
			in[p.pid] = p
			queue = append(queue, p.pid)
		}
	}
	root, rootSeen := table[t.root.pid]
	rootOurs := rootSeen && root.start == t.root.start
	// A group's id stays taken while the group has members, so processes
	// in group root.pid are the root's, unless the root is gone and its pid
	// now names another process.
	groupOurs := t.group && (rootOurs || !rootSeen)
	children := map[int][]int{}
	for _, p := range table {
		children[p.ppid] = append(children[p.ppid], p.pid)
		switch {
		case p.procKey == t.root, t.seen(p.procKey):
			add(p)
		case groupOurs && p.pgid == t.root.pid:
			add(p)
		case p.ppid == t.self && !p.dead() && t.marked(p.pid):
			add(p)
		}
	}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			add(table[c])
		}
	}
	return in
}

// seen reports whether k was seen as the instance's before.
func (t *procTree) seen(k procKey) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.known[k]
	return ok
}

// learn remembers members as the instance's, with a description of each
// read while it still runs.
func (t *procTree) learn(members map[int]procInfo) {
	for pid, p := range members {
		if t.seen(p.procKey) || p.dead() {
			continue
		}
		d := describe(pid)
		t.mu.Lock()
		t.known[p.procKey] = d
		t.mu.Unlock()
	}
}

// description returns what learn kept of k, or a fresh description.
func (t *procTree) description(k procKey) string {
	t.mu.Lock()
	d, ok := t.known[k]
	t.mu.Unlock()
	if ok {
		return d
	}
	return describe(k.pid)
}

// remember learns the instance's processes as they are now, so that they
// are still known as the instance's once their parents are gone.
func (t *procTree) remember() {
	if table, err := scanProcs(); err == nil {
		t.learn(t.members(table))
	}
}

// marked reports whether the environment of pid holds every marker.
func (t *procTree) marked(pid int) bool {
	if len(t.markers) == 0 {
		return false
	}
	raw, err := readBounded(procPath(pid, "environ"), maxEnviron)
	if err != nil {
		return false
	}
	have := map[string]bool{}
	for kv := range strings.SplitSeq(string(raw), "\x00") {
		have[kv] = true
	}
	for _, m := range t.markers {
		if !have[m] {
			return false
		}
	}
	return true
}

// containerTree returns the tree of the container id whose first process
// the engine names pid, once /proc shows that this pid is the container's
// (its cgroup names the container): a pid from an engine on another host
// or in a VM names another process here, or none.
func containerTree(pid int, id string) (*procTree, error) {
	t, err := newProcTree(pid, false, nil)
	if err != nil {
		return nil, fmt.Errorf("the container's process %d is not on this host (%w): %w", pid, err, errors.ErrUnsupported)
	}
	cgroup, err := readBounded(procPath(pid, "cgroup"), 64<<10)
	if err != nil || !bytes.Contains(cgroup, []byte(id)) || !t.root.alive() {
		return nil, fmt.Errorf("process %d of this host is not the container's: %w", pid, errors.ErrUnsupported)
	}
	return t, nil
}
