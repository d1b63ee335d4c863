package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
)

// hostileArg, as the first argument of this test binary, makes it serve a
// hostile adapter instead of running tests: the second argument is the
// mode (see serveHostile), the third a token unique to the test, which
// finds the processes it left behind.
const hostileArg = "hostile-adapter"

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == hostileArg {
		os.Exit(serveHostile(os.Args[2]))
	}
	if len(os.Args) > 1 && os.Args[1] == emptyMCPArg {
		os.Exit(serveEmptyMCP())
	}
	os.Exit(m.Run())
}

// hostileBanner is what a hostile adapter prints to take over the
// terminal of whoever reads its output: clear the screen, set the window
// title (OSC 0), write the clipboard (OSC 52), a fake verdict line, a
// bidi override, a C1 CSI as a raw byte and as UTF-8, a carriage return
// and a DEL.
const hostileBanner = "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b]52;c;Y3VybCBldmlsfHNo\x07\n" +
	"all scenarios passed\n" +
	"\u202eevil\u202c \x9b31m \u009b32m \rover\x7f\n"

// rawTerminalBytes are bytes and runes of hostileBanner a terminal acts on:
// none may reach toolcert's standard output or error raw.
var rawTerminalBytes = []string{"\x1b", "\x07", "\x9b", "\u009b", "\u202e", "\u202c", "\r", "\x7f"}

// hostileLocation is where the redirect-hostile mode points: a bidi
// override and a C1 CSI, then more than evidence quotes.
var hostileLocation = locationHead + strings.Repeat("A", 200)

// locationHead starts hostileLocation.
const locationHead = "http://evil.example/\u202egnp.exe\u009b2J"

// slowEnvelope is the failure envelope the slowloris mode dribbles.
const slowEnvelope = `{"tool":"review_status","request_id":"req.abcdefgh12","outcome":"failure","error":{"code":"INVALID_RESPONSE","retryable":false}}`

// serveHostile serves the hostile adapter of mode, listening where
// TOOLCERT_LISTEN says:
//   - exit: prints hostileBanner and exits 3 at once;
//   - never-ready: prints it and answers /healthz 503;
//   - wrong-port: prints it and listens on another port;
//   - redirect: answers every call with 302 to http://evil.example/ and a
//     valid failure envelope as its body;
//   - redirect-hostile: answers with a 307 whose reason phrase clears the
//     screen, to hostileLocation;
//   - status500: answers every call with a 500 whose reason phrase sets the
//     window title and whose body is an HTML page;
//   - slowloris: answers every call with its status line and headers, then
//     one byte of slowEnvelope a second.
func serveHostile(mode string) int {
	listen := os.Getenv(protocol.VarListen)
	switch mode {
	case "exit":
		fmt.Print(hostileBanner)
		fmt.Fprint(os.Stderr, hostileBanner)
		return 3
	case "never-ready", "wrong-port":
		fmt.Print(hostileBanner)
		fmt.Fprint(os.Stderr, hostileBanner)
		if mode == "wrong-port" {
			listen = "127.0.0.1:0"
		}
	case "redirect", "redirect-hostile", "status500", "slowloris":
	case "audit-fifo", "listen-all", "setsid-child", "sleep", "signal-parent":
		return serveHostileReference(mode)
	default:
		fmt.Fprintf(os.Stderr, "hostile adapter: unknown mode %q\n", mode)
		return 2
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		if mode == "never-ready" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	})
	mux.HandleFunc("POST /v1/", func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		answerHostile(mode, buf)
	})
	srv := &http.Server{Addr: listen, Handler: mux, ReadHeaderTimeout: time.Second}
	if err := srv.ListenAndServe(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// answerHostile writes the raw answer of mode to a call.
func answerHostile(mode string, buf *bufio.ReadWriter) {
	switch mode {
	case "redirect":
		fmt.Fprintf(buf, "HTTP/1.1 302 Found\r\nLocation: http://evil.example/\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(slowEnvelope), slowEnvelope)
	case "redirect-hostile":
		fmt.Fprintf(buf, "HTTP/1.1 307 \x1b[2JTemporary Redirect\r\nLocation: %s\r\nContent-Length: 0\r\n\r\n", hostileLocation)
	case "status500":
		page := "<html><body>\x1b[2J" + hostileBanner + "</body></html>"
		fmt.Fprintf(buf, "HTTP/1.1 500 Internal \x1b]0;pwned\x07Server Error\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(page), page)
	case "slowloris":
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(slowEnvelope))
		for i := range len(slowEnvelope) {
			if buf.Flush() != nil {
				return
			}
			time.Sleep(time.Second)
			buf.WriteByte(slowEnvelope[i])
		}
	}
	_ = buf.Flush()
}

// hostileRun runs toolcert against the hostile adapter of mode, every
// report format into a new folder, and checks that neither its standard
// output nor its standard error carries a raw byte a terminal acts on, and
// that no adapter process is left behind. It returns the exit code, the
// outputs and the folder.
func hostileRun(t *testing.T, mode string, args ...string) (int, string, string, string) {
	t.Helper()
	token := make([]byte, 8)
	_, _ = rand.Read(token)
	marker := "tok" + hex.EncodeToString(token)
	out := t.TempDir()
	cmd := fmt.Sprintf("'%s' %s %s %s", os.Args[0], hostileArg, mode, marker)
	args = append([]string{"run", "--target-cmd", cmd, "--out", out, "--format", "all", "--seed", "1"}, args...)
	code, stdout, stderr := runCLI(t, args...)
	for name, text := range map[string]string{"standard output": stdout, "standard error": stderr} {
		for _, raw := range rawTerminalBytes {
			if strings.Contains(text, raw) {
				t.Errorf("toolcert's %s holds the raw %q:\n%s", name, raw, text)
			}
		}
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, "all scenarios passed") {
				t.Errorf("toolcert's %s has the adapter's fake verdict as a line of its own:\n%s", name, text)
			}
		}
	}
	if left := processesWith(t, marker); len(left) > 0 {
		t.Errorf("adapter processes left behind: %v", left)
	}
	return code, stdout, stderr, out
}

// processesWith returns the pids of the processes whose command line holds
// marker; it skips the test where /proc does not list processes.
func processesWith(t *testing.T, marker string) []string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*/cmdline")
	if err != nil || len(dirs) == 0 {
		t.Skip("no /proc to look for processes left behind")
	}
	var pids []string
	for _, f := range dirs {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(marker)) {
			pids = append(pids, filepath.Base(filepath.Dir(f)))
		}
	}
	return pids
}

// readResult reads the results.json in dir.
func readResult(t *testing.T, dir string) reports.Result {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatalf("no results.json: %v", err)
	}
	var res reports.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	return res
}

// evidenceOf returns the error and evidence of the scenario named name.
func evidenceOf(t *testing.T, res reports.Result, name string) string {
	t.Helper()
	for _, sc := range res.Scenarios {
		if sc.Name == name {
			text := sc.Error
			for _, e := range sc.Evidence {
				text += "\n" + e.Message
			}
			return text
		}
	}
	t.Fatalf("results.json has no scenario %q: %+v", name, res.Scenarios)
	return ""
}

// TestHostileStartFailure: an adapter that prints terminal escapes and a
// fake verdict, then never starts, makes the run exit 2 after writing
// every report with the failed scenario "the target starts", its output's
// tail as evidence; what toolcert prints shows the escapes, inert. The
// progress line says what failed, and how many lines more results.json
// holds.
func TestHostileStartFailure(t *testing.T) {
	tests := []struct {
		mode, why string
		progress  *regexp.Regexp // the second line of the progress line
	}{
		{"exit", "target process exited (exit status 3)",
			regexp.MustCompile(`^     start lane \d: start process .*: target process exited \(exit status 3\); its last line: .*over\\x7f \(\d+ more lines in results\.json\)$`)},
		{"never-ready", "target not ready",
			regexp.MustCompile(`^     start lane \d: start process .*: target not ready after 1s: no 200 from GET http://127\.0\.0\.1:\d+/healthz \(the last probe: it answered 503 Service Unavailable\) \(\d+ more lines in results\.json\)$`)},
		{"wrong-port", "target not ready",
			regexp.MustCompile(`^     start lane \d: start process .*: target not ready after 1s: no 200 from GET http://127\.0\.0\.1:\d+/healthz \(the last probe: dial tcp 127\.0\.0\.1:\d+: connect: connection refused\); ` +
				`it listens on 127\.0\.0\.1:\d+ \(pid \d+: .* hostile-adapter wrong-port tok\w+\), not on 127\.0\.0\.1:\d+ \(TOOLCERT_LISTEN\) \(\d+ more lines in results\.json\)$`)},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			code, stdout, stderr, out := hostileRun(t, tt.mode, "--ready-timeout", "1s")
			if code != exitConfig {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitConfig, stdout, stderr)
			}
			for _, name := range reports.FormatNames() {
				if _, err := os.Stat(filepath.Join(out, reports.Formats()[name].File)); err != nil {
					t.Errorf("format %s not written: %v", name, err)
				}
			}
			res := readResult(t, out)
			if res.Summary.Scenarios != 1 || res.Summary.Failed != 1 {
				t.Errorf("summary %+v, want one scenario, failed", res.Summary)
			}
			ev := evidenceOf(t, res, "the target starts")
			for _, want := range []string{tt.why, "\x1b]52;c;", "all scenarios passed"} {
				if !strings.Contains(ev, want) {
					t.Errorf("the start failure's evidence lacks %q:\n%s", want, ev)
				}
			}
			junit, _ := os.ReadFile(filepath.Join(out, "junit.xml"))
			if !bytes.Contains(junit, []byte(`name="the target starts"`)) || !bytes.Contains(junit, []byte("<failure")) {
				t.Errorf("junit.xml lacks the failed start:\n%s", junit)
			}
			for _, want := range []string{"failed  target: the target starts", "wrote " + filepath.Join(out, "results.json")} {
				if !strings.Contains(stdout, want) {
					t.Errorf("the summary lacks %q:\n%s", want, stdout)
				}
			}
			for _, want := range []string{"toolcert: the target did not start: ", tt.why, `\x1b[2J\x1b[H\x1b]0;pwned\x07`, `\u202eevil\u202c \x9b31m \u009b32m \x0dover\x7f`, "  | all scenarios passed"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("standard error lacks %q:\n%s", want, stderr)
				}
			}
			if _, line, _ := strings.Cut(stderr, "FAIL target: the target starts ("); !tt.progress.MatchString(strings.Split(line, "\n")[1]) {
				t.Errorf("standard error's progress line does not match %s:\n%s", tt.progress, stderr)
			}
		})
	}
}

// hostileFeature is the scenario the hostile answers are judged by.
const hostileFeature = `Feature: hostile
  @failure
  Scenario: the agent sees a failure
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable

  @budget
  Scenario: the agent gets its answer in time
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent got its answer within the adapter's time budget
`

// TestHostileAnswers: a redirect, a 500 and a slowloris answer fail with
// evidence that says what the adapter sent and when, and what toolcert
// prints of it is inert.
func TestHostileAnswers(t *testing.T) {
	feature := filepath.Join(t.TempDir(), "hostile.feature")
	if err := os.WriteFile(feature, []byte(hostileFeature), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		mode, tag, scenario string
		want                []string
	}{
		{"redirect", "@failure", "the agent sees a failure", []string{
			"the adapter answered HTTP/1.1 302 Found (Location: http://evil.example/) where it must answer 200 with an envelope",
		}},
		{"redirect-hostile", "@failure", "the agent sees a failure", []string{
			`the adapter answered HTTP/1.1 307 \x1b[2JTemporary Redirect (Location: http://evil.example/\u202egnp.exe\u009b2J` + strings.Repeat("A", 120-len(locationHead)) + "…) where it must answer 200 with an envelope",
		}},
		{"status500", "@failure", "the agent sees a failure", []string{
			`the adapter answered HTTP/1.1 500 Internal \x1b]0;pwned\x07Server Error where it must answer 200 with an envelope; the agent-visible body is not strict JSON`,
		}},
		{"slowloris", "@failure", "the agent sees a failure", []string{
			`the target gave no complete answer to "review_status" within 6s`,
			`the status line "HTTP/1.1 200 OK" came after `,
			fmt.Sprintf(` bytes of the body (of the %d its Content-Length announced) over `, len(slowEnvelope)), ", the first after ", ", the last after ",
		}},
		{"slowloris", "@budget", "the agent gets its answer in time", []string{
			"the agent got no answer within 6s",
			`the status line "HTTP/1.1 200 OK" came after `,
			fmt.Sprintf(` bytes of the body (of the %d its Content-Length announced) over `, len(slowEnvelope)), ", the first after ", ", the last after ",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.mode+" "+tt.tag, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr, out := hostileRun(t, tt.mode, "--features", feature, "--tags", tt.tag)
			if code != exitFail {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFail, stdout, stderr)
			}
			ev := evidenceOf(t, readResult(t, out), tt.scenario)
			for _, want := range tt.want {
				if !strings.Contains(ev, want) {
					t.Errorf("the evidence lacks %q:\n%s", want, ev)
				}
			}
		})
	}
}

// TestMissingImageWritesReports: an image the Docker engine does not have
// (or no engine at all) is a target that does not start: exit 2, with the
// reports written and the failure in them.
func TestMissingImageWritesReports(t *testing.T) {
	t.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	out := t.TempDir()
	code, stdout, stderr := runCLI(t, "run", "--quiet", "--target-image", "toolcert-no-such-image:never", "--out", out, "--format", "json,junit")
	if code != exitConfig || !strings.Contains(stderr, "the target did not start") {
		t.Errorf("exit %d, want %d and the start failure\nstdout:\n%s\nstderr:\n%s", code, exitConfig, stdout, stderr)
	}
	res := readResult(t, out)
	if ev := evidenceOf(t, res, "the target starts"); !strings.Contains(ev, "toolcert-no-such-image:never") {
		t.Errorf("the evidence does not name the image:\n%s", ev)
	}
	if _, err := os.Stat(filepath.Join(out, "junit.xml")); err != nil {
		t.Errorf("junit.xml not written: %v", err)
	}
}
