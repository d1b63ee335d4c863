package targets

import (
	"fmt"
	"os"
	"slices"
	"sync"
	"syscall"
	"time"
)

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER of <linux/prctl.h>.
const prSetChildSubreaper = 36

// sweepPoll is how often sweep looks again for processes it is ending.
const sweepPoll = 10 * time.Millisecond

// becomeSubreaper makes the harness a child subreaper, once per process:
// an orphan among the descendants of a process it started (the grandchild
// of a double fork) is then re-parented to the harness instead of init, so
// that Stop can find it, kill it and reap it. The setting belongs to the
// whole process and lasts until it exits; it is made on the first start of
// a process rather than at package initialization, so that a program that
// imports this package but starts no adapter is left as it was. Where the
// kernel refuses it (before Linux 3.4), orphans go to init and Stop finds
// only those it saw before their parent died.
var becomeSubreaper = sync.OnceValue(func() error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); errno != 0 {
		return fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %w", errno)
	}
	return nil
})

// sweep kills, within wait, every process of the instance that still runs
// once its root has been ended, and reaps those the harness adopted. It
// returns the description of each it had to kill, leaving out the members
// of the root's process group (they got the group's SIGKILL already and are
// only not dead yet), and an error when some still run after wait.
func (t *procTree) sweep(wait time.Duration) ([]string, error) {
	deadline := time.Now().Add(wait)
	killed := map[procKey]bool{}
	var left []string
	for {
		table, err := scanProcs()
		if err != nil {
			return left, fmt.Errorf("look for leftover processes: %w", err)
		}
		members := t.members(table)
		t.learn(members)
		var running []int
		for pid, p := range members {
			if p.procKey == t.root {
				continue // os/exec reaps it
			}
			if p.dead() {
				if p.ppid == t.self {
					reap(pid)
				} else {
					running = append(running, pid) // its parent dies too, leaving it to the harness
				}
				continue
			}
			running = append(running, pid)
			if killed[p.procKey] {
				continue
			}
			killed[p.procKey] = true
			if !t.group || p.pgid != t.root.pid {
				left = append(left, t.description(p.procKey))
			}
			kill(p.procKey)
		}
		if len(running) == 0 {
			slices.Sort(left)
			return left, nil
		}
		if time.Now().After(deadline) {
			slices.Sort(running)
			return left, fmt.Errorf("processes %v still running after SIGKILL", running)
		}
		time.Sleep(sweepPoll)
	}
}

// kill sends SIGKILL to k, and never to a process that took its pid:
// os.FindProcess holds the process by a pidfd (Linux 5.3 and later), and k
// is checked after it is held. It reports whether the signal was sent.
func kill(k procKey) bool {
	p, err := os.FindProcess(k.pid)
	if err != nil {
		return false
	}
	defer p.Release()
	return k.alive() && p.Signal(syscall.SIGKILL) == nil
}

// reap collects the exit status of pid, a child of the harness that has
// exited, so that it does not stay a zombie.
func reap(pid int) {
	var ws syscall.WaitStatus
	_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
}
