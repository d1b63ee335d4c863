// Package hostile gives the fake adapters of the targets package's tests
// what a hostile adapter does to outlive or outreach the harness: a child
// that ignores SIGTERM, one in a session of its own, a grandchild orphaned
// by a double fork, and listeners beyond loopback.
package hostile

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The modes of Spawn.
const (
	// Group is a child in the caller's process group that ignores SIGTERM.
	Group = "group"
	// Setsid is a child in a session (and process group) of its own, out
	// of reach of signals sent to the caller's group.
	Setsid = "setsid"
	// DoubleFork is a grandchild in a session of its own whose parent
	// exits at once: an orphan, adopted by the nearest subreaper or init.
	DoubleFork = "double-fork"
)

// roleFlag is the first argument of a copy of the program that plays a
// helper role.
const roleFlag = "-hostile-role"

// lifetime bounds every helper, so that one a failing test leaves behind
// ends by itself.
const lifetime = 2 * time.Minute

// Play runs the helper role args (os.Args[1:]) name, and exits; it returns
// at once when they name none. Call it first in main.
func Play(args []string) {
	if len(args) < 2 || args[0] != roleFlag {
		return
	}
	listen := ""
	if len(args) > 2 {
		listen = args[2]
	}
	switch args[1] {
	case "sleeper":
		os.Exit(sleep(listen))
	case "middle":
		os.Exit(middle(listen))
	}
	fmt.Fprintf(os.Stderr, "hostile: unknown role %q\n", args[1])
	os.Exit(2)
}

// Spawn starts what mode names, listening on listen when it is not "", and
// returns the pid of the process that stays (the child, or the grandchild
// for DoubleFork) once it is listening. It does not wait for it to end.
func Spawn(mode, listen string) (int, error) {
	switch mode {
	case Group, Setsid:
		cmd, err := helper("sleeper", listen)
		if err != nil {
			return 0, err
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: mode == Setsid}
		return startSleeper(cmd)
	case DoubleFork:
		cmd, err := helper("middle", listen)
		if err != nil {
			return 0, err
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		out, err := cmd.Output()
		if err != nil {
			return 0, fmt.Errorf("double fork: %w", err)
		}
		return strconv.Atoi(strings.TrimSpace(string(out)))
	}
	return 0, fmt.Errorf("unknown spawn mode %q", mode)
}

// startSleeper starts a sleeper and returns its pid once it says it is
// ready. It does not wait for it to end.
func startSleeper(cmd *exec.Cmd) (int, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "ready\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return 0, fmt.Errorf("sleeper not ready: %q, %v", line, err)
	}
	go func() { _ = cmd.Wait() }()
	return cmd.Process.Pid, nil
}

// helper returns the command of a copy of this program in role, its
// standard streams on /dev/null.
func helper(role, listen string) (*exec.Cmd, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return exec.Command(self, roleFlag, role, listen), nil
}

// sleep ignores the signals that end a process politely, listens on listen
// when it is not "", says "ready" on its standard output and closes it,
// and sleeps for the helpers' lifetime.
func sleep(listen string) int {
	signal.Ignore(syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT)
	if listen != "" {
		l, err := net.Listen("tcp", listen)
		if err != nil {
			fmt.Fprintln(os.Stderr, "sleeper:", err)
			return 1
		}
		defer l.Close()
	}
	fmt.Println("ready")
	os.Stdout.Close()
	time.Sleep(lifetime)
	return 0
}

// middle starts a sleeper, prints its pid once it is ready and exits
// without waiting for it: the first child of a double fork.
func middle(listen string) int {
	cmd, err := helper("sleeper", listen)
	if err != nil {
		return 1
	}
	pid, err := startSleeper(cmd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "middle:", err)
		return 1
	}
	fmt.Println(pid)
	return 0
}
