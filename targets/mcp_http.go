package targets

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMCPPath is the path of the MCP endpoint of a server the harness
// starts per lane when the config names none.
const DefaultMCPPath = "/mcp"

// MCPHTTP is a Target reached over MCP's streamable HTTP transport: an
// endpoint that is already running (NewMCPURL, one lane), or a process per
// lane listening on the lane's address (NewMCPHTTPProcess).
type MCPHTTP struct {
	endpoint     string   // a running server's endpoint
	proc         *Process // or a process per lane
	path         string   // the process's endpoint path
	readyTimeout time.Duration
}

var _ Target = (*MCPHTTP)(nil)

// NewMCPURL returns a target for the MCP server already serving at
// endpoint (an http or https URL on loopback, e.g.
// http://127.0.0.1:8080/mcp).
func NewMCPURL(endpoint string, opts ...URLOption) (*MCPHTTP, error) {
	u, err := NewURL(endpoint, opts...)
	if err != nil {
		return nil, fmt.Errorf("new mcp url target: %w", err)
	}
	return &MCPHTTP{endpoint: strings.TrimSuffix(endpoint, "/"), readyTimeout: u.cfg.readyTimeout}, nil
}

// NewMCPHTTPProcess returns a target that runs argv per lane and reaches
// it at http://<the lane's listen address><path> (DefaultMCPPath when path
// is ""). The process gets the protocol's environment, as a Process does.
func NewMCPHTTPProcess(argv []string, path string, opts ...ProcessOption) (*MCPHTTP, error) {
	p, err := NewProcess(argv, opts...)
	if err != nil {
		return nil, fmt.Errorf("new mcp http target: %w", err)
	}
	if path == "" {
		path = DefaultMCPPath
	}
	if !strings.HasPrefix(path, "/") {
		return nil, fmt.Errorf("new mcp http target: path %q does not start with /", path)
	}
	return &MCPHTTP{proc: p, path: path, readyTimeout: p.cfg.readyTimeout}, nil
}

// String returns "mcp-http " and the endpoint or the command line.
func (t *MCPHTTP) String() string {
	if t.proc == nil {
		return "mcp-http " + t.endpoint
	}
	return "mcp-http " + strings.TrimPrefix(t.proc.String(), "process ")
}

// Start connects to the server (starting its process first, when it is
// one per lane) and initializes a session, retrying until the ready
// timeout. The caller must call Stop on the instance.
func (t *MCPHTTP) Start(ctx context.Context, env Env) (Instance, error) {
	if t.proc == nil {
		s, err := connectHTTP(ctx, t.endpoint, t.readyTimeout, nil)
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", t, err)
		}
		return &mcpHTTPInstance{mcpSession: s, endpoint: t.endpoint}, nil
	}
	return t.startProcess(ctx, env)
}

// startProcess runs the server on the lane's address and connects to it.
func (t *MCPHTTP) startProcess(ctx context.Context, env Env) (Instance, error) {
	if env.Listen == "" {
		addr, err := FreePort()
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", t, err)
		}
		env.Listen = addr
	}
	base, err := baseURL(env.Listen)
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	proc, err := t.proc.start(t.String(), env, base, func(cmd *exec.Cmd, inst *processInstance) error {
		cmd.Stdout, cmd.Stderr = inst.logs, inst.logs
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	endpoint := base + t.path
	s, err := connectHTTP(ctx, endpoint, t.readyTimeout, proc.done)
	if err == nil {
		return mcpHTTPProcessInstance{&mcpHTTPInstance{mcpSession: s, endpoint: endpoint, proc: proc}}, nil
	}
	if closedWithin(ctx, proc.done, exitSettle) { // it exited on its own
		_ = proc.Stop(context.Background())
		return nil, fmt.Errorf("start %s: %w", t, proc.exitStatus())
	}
	note := ""
	if ctx.Err() == nil {
		note = listenNote(proc.tree, env.Listen, listenVar(t.proc.cfg.rename))
	}
	stopErr := proc.Stop(context.Background())
	err = fmt.Errorf("start %s: %w", t, notReady(err, note, proc.logs))
	return nil, errors.Join(err, stopErr)
}

// connectHTTP initializes a session with endpoint, trying again every
// readyPollInterval until timeout passes, ctx ends or exited closes.
func connectHTTP(ctx context.Context, endpoint string, timeout time.Duration, exited <-chan struct{}) (*mcpSession, error) {
	deadline := time.Now().Add(timeout)
	for {
		c := &capture{}
		transport := &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: newMCPHTTPClient(), MaxRetries: -1, DisableStandaloneSSE: true}
		s, err := connectMCP(ctx, transport, c, min(time.Until(deadline), probeTimeout))
		if err == nil {
			return s, nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) || closed(exited) {
			return nil, fmt.Errorf("connect to %s: %w after %s: %w", endpoint, ErrNotReady, timeout, err)
		}
		select {
		case <-ctx.Done():
		case <-exited:
		case <-time.After(readyPollInterval):
		}
	}
}

// newMCPHTTPClient returns the HTTP client of an MCP session: no proxy,
// no redirects, bounded headers.
func newMCPHTTPClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{Proxy: nil, DisableCompression: true, MaxResponseHeaderBytes: 1 << 20},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// mcpHTTPInstance is one session of an MCPHTTP target, with its process
// when the harness started one.
type mcpHTTPInstance struct {
	*mcpSession
	endpoint string
	proc     *processInstance // nil for a server already running
}

var _ MCPInstance = (*mcpHTTPInstance)(nil)

// URL returns the endpoint.
func (i *mcpHTTPInstance) URL() string { return i.endpoint }

// Transport returns TransportHTTP.
func (i *mcpHTTPInstance) Transport() string { return TransportHTTP }

// Noise returns nothing: the HTTP transport has no stdout.
func (i *mcpHTTPInstance) Noise() []string { return nil }

// Logs returns the tail of the process's output, "" for a running server.
func (i *mcpHTTPInstance) Logs() string {
	if i.proc == nil {
		return ""
	}
	return i.proc.Logs()
}

// LogsSince returns what the process printed after mark, "" for a running
// server (LogCursor).
func (i *mcpHTTPInstance) LogsSince(mark int64) (string, int64) {
	if i.proc == nil {
		return "", 0
	}
	return i.proc.LogsSince(mark)
}

// Alive returns an *ExitError once the process has exited, or the error of
// a ping.
func (i *mcpHTTPInstance) Alive(ctx context.Context) error {
	if i.proc != nil && i.proc.exited() {
		return fmt.Errorf("alive %s: %w", i.proc.name, i.proc.exitStatus())
	}
	if err := i.ping(ctx, probeTimeout); err != nil {
		return fmt.Errorf("alive %s: %w", i.endpoint, err)
	}
	return nil
}

// Stop closes the session and ends the process, when there is one.
func (i *mcpHTTPInstance) Stop(ctx context.Context) error {
	_ = i.close()
	if i.proc == nil {
		return nil
	}
	return i.proc.Stop(ctx)
}

// mcpHTTPProcessInstance is an mcpHTTPInstance whose server the harness
// started: it can also say where its processes listen and what they left.
type mcpHTTPProcessInstance struct{ *mcpHTTPInstance }

var (
	_ MCPInstance      = mcpHTTPProcessInstance{}
	_ ExposureChecker  = mcpHTTPProcessInstance{}
	_ LeftoverReporter = mcpHTTPProcessInstance{}
	_ LogCursor        = mcpHTTPProcessInstance{}
)

// Exposed returns where the server's processes listen beyond loopback.
func (i mcpHTTPProcessInstance) Exposed(ctx context.Context) ([]string, error) {
	return i.proc.Exposed(ctx)
}

// Leftovers returns the processes Stop had to kill.
func (i mcpHTTPProcessInstance) Leftovers() []string { return i.proc.Leftovers() }
