package targets

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"sync"
)

// owner names a harness process, the owner of what it starts: its
// containers carry it as labels (containerLabels), its processes as
// protocol.VarOwner. A later harness that finds the owner gone removes
// what it left (removeOrphans, killOrphans).
type owner struct {
	run   string // a random ID of the process
	pid   int
	start string // the start time of pid, so that a process that later got its pid is not taken for it; "" where unknown
	space string // where pid means something (pidSpace); "" where unknown
}

// harnessOwner returns this process as an owner, computed once: the
// process's identity does not change while it runs.
var harnessOwner = sync.OnceValue(func() owner {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	pid := os.Getpid()
	return owner{run: hex.EncodeToString(b), pid: pid, start: processStart(pid), space: pidSpace()}
})

// gone reports whether o is a harness process of pid space space that no
// longer runs. An owner of another space, or of none, is never gone:
// whose pids these are cannot be told.
func (o owner) gone(space string) bool {
	return space != "" && o.space == space && o.pid > 0 && !processRuns(o.pid, o.start)
}

// String returns o as the value of protocol.VarOwner:
// "pid=4242 start=869699 run=0a1b2c3d4e5f6071 space=linux <boot id> pid:[4026531836]",
// the space last as it holds spaces. parseOwner reads it back.
func (o owner) String() string {
	return "pid=" + strconv.Itoa(o.pid) + " start=" + o.start + " run=" + o.run + " space=" + o.space
}

// parseOwner reads what String wrote; ok is false for anything else.
func parseOwner(s string) (o owner, ok bool) {
	fields := strings.SplitN(s, " ", 4)
	if len(fields) != 4 {
		return owner{}, false
	}
	values := make([]string, len(fields))
	for i, key := range []string{"pid=", "start=", "run=", "space="} {
		if values[i], ok = strings.CutPrefix(fields[i], key); !ok {
			return owner{}, false
		}
	}
	pid, err := strconv.Atoi(values[0])
	if err != nil {
		return owner{}, false
	}
	return owner{pid: pid, start: values[1], run: values[2], space: values[3]}, true
}
