// Package browsertest runs a headless Chromium for the reports' tests and
// records what a page did in it: the requests it sent, the dialogs it
// opened, the console calls, exceptions and log entries it raised, its
// Content-Security-Policy violations and the calls of a canary that only a
// script of the page can make. Only tests import it.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The environment variables that steer [New] and [Page.Screenshot].
const (
	// RequireEnv set to 1 makes [New] fail the test, not skip it, when no
	// browser is installed: CI sets it after installing Chromium.
	RequireEnv = "TOOLCERT_REQUIRE_BROWSER"
	// ScreenshotDirEnv names a folder that [Page.Screenshot] copies each
	// screenshot into, for a person to look at.
	ScreenshotDirEnv = "TOOLCERT_SCREENSHOT_DIR"
)

// ErrNoBrowser is returned by [ExecPath] when no Chromium or Chrome binary
// is on PATH.
var ErrNoBrowser = errors.New("no chromium or chrome binary on PATH")

// Viewport is the size of the browser's window: a laptop screen.
const (
	ViewportWidth  = 1280
	ViewportHeight = 800
)

// execNames are the names a Chromium or Chrome binary goes by on PATH,
// Debian's package ("chromium") first.
func execNames() []string {
	return []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable",
		"chrome", "headless_shell", "headless-shell"}
}

// ExecPath returns the path of the first Chromium or Chrome binary on PATH,
// or ErrNoBrowser.
func ExecPath() (string, error) {
	for _, name := range execNames() {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("%w (looked for %s)", ErrNoBrowser, strings.Join(execNames(), ", "))
}

// Browser is a headless Chromium that [New] started for one test.
type Browser struct {
	tb  testing.TB
	ctx context.Context // the browser's own context: tabs derive from it
}

// New starts a headless Chromium for tb, with no network beyond loopback,
// and stops it with every process it started when tb ends; it fails tb if
// a process of the browser is left. Every action through the Browser shares
// one deadline, timeout from now. New skips tb when no browser is installed,
// or fails it when RequireEnv is "1".
func New(tb testing.TB, timeout time.Duration) *Browser {
	tb.Helper()
	path, err := ExecPath()
	if err != nil {
		if os.Getenv(RequireEnv) == "1" {
			tb.Fatalf("%s=1 but: %v", RequireEnv, err)
		}
		tb.Skipf("skip: %v; install one (Debian: apt-get install chromium) or set %s=1 to fail instead", err, RequireEnv)
	}
	// The browser's config home: its crash handler's database lands
	// there, not in $HOME, and names it on its command line.
	home := tb.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	var cmd atomic.Pointer[exec.Cmd]
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, allocatorOptions(path, home, &cmd)...)
	bctx, cancelBrowser := chromedp.NewContext(allocCtx)
	tb.Cleanup(func() {
		stop(bctx, cmd.Load(), home)
		cancelBrowser()
		cancelAlloc()
		cancel()
		if left := leftovers(cmd.Load(), home); len(left) > 0 {
			tb.Errorf("browser processes left after the test: %v", left)
		}
	})
	if err := chromedp.Do(bctx); err != nil {
		tb.Fatalf("start %s: %v", path, err)
	}
	return &Browser{tb: tb, ctx: bctx}
}

// allocatorOptions are chromedp's defaults plus: the binary at path, its
// config home, a fixed window, every host name unresolvable (so no request
// can leave the machine whatever a page asks for) and the browser in a
// process group of its own, whose command cmd records, so that cleanup can
// kill the group.
func allocatorOptions(path, home string, cmd *atomic.Pointer[exec.Cmd]) []chromedp.ExecAllocatorOption {
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Env("XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home),
		chromedp.WindowSize(ViewportWidth, ViewportHeight),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("no-proxy-server", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.ModifyCmdFunc(func(c *exec.Cmd) {
			// Pdeathsig as chromedp sets it by default; Setpgid so that the
			// whole tree (zygote, renderers, GPU and network services) can
			// be killed at once.
			c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
			cmd.Store(c)
		}),
	)
	if os.Getuid() == 0 {
		// Chromium refuses to start as root with its sandbox on (its
		// namespace and setuid sandboxes need an unprivileged user), and CI
		// runs as root in a container: --no-sandbox. The pages it loads are
		// the test's own, and their scripts are what the test forbids.
		opts = append(opts, chromedp.NoSandbox)
	}
	return opts
}

// stop closes the browser gracefully, for at most two seconds, then kills
// its process group and the crash handlers that left the group.
func stop(bctx context.Context, cmd *exec.Cmd, home string) {
	ctx, cancel := context.WithTimeout(bctx, 2*time.Second)
	defer cancel()
	_ = chromedp.Cancel(ctx) // the kills below are what counts
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // ESRCH: gone already
	for _, pid := range browserProcesses(cmd.Process.Pid, home) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// leftovers lists the browser's processes still alive, after waiting up to
// a second for the killed ones to go.
func leftovers(cmd *exec.Cmd, home string) []int {
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	for deadline := time.Now().Add(time.Second); ; time.Sleep(20 * time.Millisecond) {
		left := browserProcesses(cmd.Process.Pid, home)
		if len(left) == 0 || time.Now().After(deadline) {
			return left
		}
	}
}

// browserProcesses lists, from /proc, the live processes (zombies
// excluded) of the browser: those in process group pgid, and those whose
// command line names home (the crash handlers, which daemonize out of the
// group).
func browserProcesses(pgid int, home string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		state, group, ok := procStat(pid)
		if !ok || state == "Z" {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if group == pgid || strings.Contains(string(cmdline), home) {
			out = append(out, pid)
		}
	}
	return out
}

// procStat reads a process's state and process group from /proc.
func procStat(pid int) (state string, pgid int, ok bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	// pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses,
	// so split after its last closing parenthesis.
	i := strings.LastIndexByte(string(stat), ')')
	f := strings.Fields(string(stat[i+1:]))
	if len(f) < 3 {
		return "", 0, false
	}
	pgid, err = strconv.Atoi(f[2])
	return f[0], pgid, err == nil
}
