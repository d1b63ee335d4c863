package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/toolcert/toolcert/internal/authoring/record"
	"github.com/toolcert/toolcert/internal/authoring/scaffold"
)

const recordSynopsis = `Usage: toolcert fixtures record --upstream URL --tool NAME [--listen ADDR] [flags]

Runs a recording proxy on ADDR (loopback only; default 127.0.0.1:8089): point
the adapter under test, or any client, at http://ADDR instead of the real
upstream. Every request is forwarded to URL and its answer handed back
unchanged. Each strict JSON 2xx answer of the tool's route is kept as an
accepted example, byte for byte; each JSON error answer (one per status) as a
reject served with its status; and a closed Draft 2020-12 schema is inferred
from the answers, every inference (a type, a required member, a format, an
enum, which path segments are arguments) marked in tool.json's "decide" for
you to review. Recording stops on Ctrl-C (SIGINT or SIGTERM), after
--max-answers answers (default 200) or after --duration; then it writes
DIR/NAME and lints it (docs/fixtures.md, docs/certify-from-openapi.md).

Request headers are never stored; of the response headers only Content-Type
and a version header are; query values named like secrets are redacted.
Bodies are stored as they came: do not record answers that hold secrets.

Exit codes: 0 written; 1 the folder written has lint problems; 2 usage error,
nothing recorded, the folder exists (--force), or the upstream is unusable.`

// recordFlags are the flags of fixtures record.
type recordFlags struct {
	upstream, listen, tool, out, route, keep string
	enum, force                              bool
	maxAnswers                               int
	duration                                 time.Duration
	maxBody                                  int64
}

// fixturesRecord records a real upstream's answers through a proxy on
// loopback and writes the tool's corpus folder from them.
func fixturesRecord(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f recordFlags
	fs := newFlags("fixtures record", recordSynopsis, stderr)
	fs.StringVar(&f.upstream, "upstream", "", "base `URL` of the real upstream (http or https)")
	fs.StringVar(&f.listen, "listen", "127.0.0.1:8089", "loopback `ADDR` (host:port) the proxy listens on; port 0 picks one")
	fs.StringVar(&f.tool, "tool", "", "the tool's `NAME`: its folder under --out")
	fs.StringVar(&f.out, "out", "fixtures", "corpus `DIR` to write the tool's folder into")
	fs.StringVar(&f.route, "route", "", "the tool's request, `\"METHOD /path/{name}\"`: only its answers are recorded, {name} segments\nare the arguments; without it every answer is, and the route is inferred from their paths")
	fs.StringVar(&f.keep, "keep", "", "comma-separated JSON `POINTERS` of what the agent keeps of an answer (/title,/user/login;\n/*/id keeps id of every element of a list); none keeps every top-level member")
	fs.BoolVar(&f.enum, "enum", false, "turn a string member that took few values, each more than once, into an enum")
	fs.IntVar(&f.maxAnswers, "max-answers", 200, "stop after `N` recorded answers (0: no limit; each is held in memory until the folder is written,\nup to --max-body)")
	fs.DurationVar(&f.duration, "duration", 0, "stop after this `DURATION` (0: on Ctrl-C only)")
	fs.Int64Var(&f.maxBody, "max-body", record.DefaultMaxBody, "`BYTES` of one answer kept at most; a longer one is forwarded but not recorded")
	fs.BoolVar(&f.force, "force", false, "replace the tool's folder if it exists")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	rec, ln, err := f.start()
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "recording %s through http://%s (Ctrl-C to stop and write)\n", f.upstream, ln.Addr())
	if err := serveUntil(ctx, ln, rec, f); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "recorded %d answers, %d forwarded and not recorded\n", len(rec.Answers()), len(rec.Skipped()))
	t, err := rec.Tool(record.ToolOptions{Name: f.tool, Keep: splitList(f.keep), Enum: f.enum,
		Source: fmt.Sprintf("recorded from %s by toolcert %s fixtures record, %s", f.upstream, version, time.Now().UTC().Format(time.RFC3339))})
	if err != nil {
		return configErr(err)
	}
	return writeTool(stdout, f.out, t, scaffold.Options{Force: f.force})
}

// start checks the flags, makes the recorder and listens.
func (f recordFlags) start() (*record.Recorder, net.Listener, error) {
	switch {
	case f.upstream == "":
		return nil, nil, usageErr("fixtures record: --upstream is required")
	case f.tool == "":
		return nil, nil, usageErr("fixtures record: --tool is required")
	}
	u, err := url.Parse(f.upstream)
	if err != nil {
		return nil, nil, usageErr("--upstream: %v", err)
	}
	rec, err := record.New(record.Config{Upstream: u, Route: f.route, MaxBody: f.maxBody, MaxAnswers: f.maxAnswers})
	if err != nil {
		return nil, nil, usageErr("%v", err)
	}
	if err := loopbackOnly(f.listen); err != nil {
		return nil, nil, usageErr("--listen: %v", err)
	}
	ln, err := net.Listen("tcp", f.listen)
	if err != nil {
		return nil, nil, configErr(fmt.Errorf("--listen: %w", err))
	}
	return rec, ln, nil
}

// loopbackOnly refuses an address whose host is not a loopback IP or
// localhost: the proxy hands the real upstream's answers to whoever
// reaches it.
func loopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address (127.0.0.1, [::1] or localhost): the proxy listens on loopback only", host)
	}
	return nil
}

// serveUntil serves rec on ln until ctx ends, the duration passes or
// max-answers answers are recorded, then shuts the server down.
func serveUntil(ctx context.Context, ln net.Listener, rec *record.Recorder, f recordFlags) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if f.duration > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, f.duration)
		defer stop()
	}
	var done atomic.Bool
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.ServeHTTP(w, r)
		if f.maxAnswers > 0 && len(rec.Answers()) >= f.maxAnswers && done.CompareAndSwap(false, true) {
			cancel()
		}
	})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return configErr(fmt.Errorf("the recording proxy stopped: %w", err))
	case <-ctx.Done():
	}
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return configErr(err)
	}
	return nil
}

// splitList splits a comma-separated list, each item trimmed, "" being
// none.
func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	out := strings.Split(s, ",")
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}
