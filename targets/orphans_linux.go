package targets

import (
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/toolcert/toolcert/protocol"
)

// sweepOrphans kills what killOrphans finds in this harness's pid space,
// once per process, and returns what it killed. Like becomeSubreaper, it
// runs on the first start of a process rather than at package
// initialization, so that a program that imports this package but starts
// no adapter kills nothing.
var sweepOrphans = sync.OnceValue(func() []string {
	return killOrphans(harnessOwner().space)
})

// killOrphans kills, with SIGKILL, every process of this user whose
// protocol.VarOwner names a harness process of pid space space that no
// longer runs: the processes an adapter started and left running when its
// harness was killed with SIGKILL (the parent-death signal ends the
// adapter, but a process it starts does not inherit it). A process whose
// harness runs (another run), or of another pid space, or that names no
// harness (it cleared its environment) is left alone, and so are the
// processes of other users, whose environment cannot be read. It returns
// the description of each process it killed, sorted; it is best effort
// and does not wait for them to end.
func killOrphans(space string) []string {
	if space == "" {
		return nil // whose pids these are cannot be told
	}
	table, err := scanProcs()
	if err != nil {
		return nil
	}
	self, uid := os.Getpid(), os.Geteuid()
	var killed []string
	for pid, p := range table {
		if pid == self || p.dead() || !ownedBy(pid, uid) {
			continue
		}
		o, ok := markedOwner(pid)
		if !ok || !o.gone(space) {
			continue
		}
		d := describe(pid)
		if kill(p.procKey) {
			killed = append(killed, d)
		}
	}
	slices.Sort(killed)
	return killed
}

// ownedBy reports whether the process pid belongs to user uid.
func ownedBy(pid, uid int) bool {
	info, err := os.Stat(procPath(pid, ""))
	if err != nil {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == uid
}

// markedOwner returns the harness that the environment of pid names
// (protocol.VarOwner); ok is false when it names none.
func markedOwner(pid int) (owner, bool) {
	raw, err := readBounded(procPath(pid, "environ"), maxEnviron)
	if err != nil {
		return owner{}, false
	}
	for kv := range strings.SplitSeq(string(raw), "\x00") {
		if value, ok := strings.CutPrefix(kv, protocol.VarOwner+"="); ok {
			return parseOwner(value)
		}
	}
	return owner{}, false
}
