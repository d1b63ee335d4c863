package targets

import (
	"os"
	"strconv"
	"strings"
)

// processStart returns the start time of pid, in clock ticks after boot,
// or "" when it cannot be read.
func processStart(pid int) string {
	p, err := readStat(pid)
	if err != nil {
		return ""
	}
	return strconv.FormatUint(p.start, 10)
}

// pidSpace names where this process's pids mean something: the boot (a
// reboot starts pids again) and the pid namespace (another container
// counts its own); "" when either is unknown.
func pidSpace() string {
	boot, _ := readBounded("/proc/sys/kernel/random/boot_id", 64)
	ns, _ := os.Readlink("/proc/self/ns/pid")
	if id := strings.TrimSpace(string(boot)); id != "" && ns != "" {
		return "linux " + id + " " + ns
	}
	return ""
}

// processRuns reports whether process pid runs and, when start is not "",
// started then.
func processRuns(pid int, start string) bool {
	p, err := readStat(pid)
	return err == nil && !p.dead() && (start == "" || strconv.FormatUint(p.start, 10) == start)
}
