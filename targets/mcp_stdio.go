package targets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPStdio is a Target that runs an MCP server as a local process per
// lane, speaking JSON-RPC on its stdin and stdout. Its stderr is operator
// output, kept for evidence; a line on stdout that is not a JSON-RPC
// message is noise, kept apart (MCPInstance.Noise) and never passed to the
// client.
type MCPStdio struct {
	proc *Process
}

var _ Target = (*MCPStdio)(nil)

// NewMCPStdio returns a target that runs argv per lane (argv[0] is looked
// up in PATH when it holds no slash), with the protocol's environment as a
// Process has it. The options are a Process's.
func NewMCPStdio(argv []string, opts ...ProcessOption) (*MCPStdio, error) {
	p, err := NewProcess(argv, opts...)
	if err != nil {
		return nil, fmt.Errorf("new mcp stdio target: %w", err)
	}
	return &MCPStdio{proc: p}, nil
}

// String returns "mcp-stdio " and the command line.
func (t *MCPStdio) String() string {
	return "mcp-stdio " + strings.TrimPrefix(t.proc.String(), "process ")
}

// Start runs the server, initializes an MCP session with it and lists its
// tools, within the ready timeout. It fails fast with an *ExitError when
// the process exits first. The caller must call Stop on the instance.
func (t *MCPStdio) Start(ctx context.Context, env Env) (Instance, error) {
	if env.Listen == "" {
		addr, err := FreePort()
		if err != nil {
			return nil, fmt.Errorf("start %s: %w", t, err)
		}
		env.Listen = addr
	}
	c := &capture{}
	tap, fromServer := newStdoutTap(c)
	var toServer interface {
		Write([]byte) (int, error)
		Close() error
	}
	proc, err := t.proc.start(t.String(), env, "", func(cmd *exec.Cmd, inst *processInstance) error {
		in, err := cmd.StdinPipe()
		if err != nil {
			return err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return err
		}
		toServer = in
		cmd.Stderr = inst.logs
		go tap.run(out)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", t, err)
	}
	inst := &mcpStdioInstance{proc: proc, tap: tap}
	transport := &mcp.IOTransport{Reader: fromServer, Writer: toServer, MaxLineLength: maxStdoutLine}
	inst.mcpSession, err = connectMCP(ctx, transport, c, t.proc.cfg.readyTimeout)
	if err == nil {
		return inst, nil
	}
	if closedWithin(ctx, proc.done, exitSettle) { // it exited on its own
		_ = proc.Stop(context.Background())
		return nil, fmt.Errorf("start %s: %w", t, proc.exitStatus())
	}
	stopErr := proc.Stop(context.Background())
	err = fmt.Errorf("start %s: %w%s", t, notReady(err, "", proc.logs), describeNoise(tap.lines()))
	return nil, errors.Join(err, stopErr)
}

// mcpStdioInstance is one running server of an MCPStdio target.
type mcpStdioInstance struct {
	*mcpSession
	proc *processInstance
	tap  *stdoutTap
}

var (
	_ MCPInstance      = (*mcpStdioInstance)(nil)
	_ ExposureChecker  = (*mcpStdioInstance)(nil)
	_ LeftoverReporter = (*mcpStdioInstance)(nil)
	_ LogCursor        = (*mcpStdioInstance)(nil)
)

// URL returns "": the server has no address.
func (i *mcpStdioInstance) URL() string { return "" }

// Logs returns the tail of the server's stderr.
func (i *mcpStdioInstance) Logs() string { return i.proc.Logs() }

// LogsSince returns what the server wrote on stderr after mark
// (LogCursor).
func (i *mcpStdioInstance) LogsSince(mark int64) (string, int64) { return i.proc.LogsSince(mark) }

// Transport returns TransportStdio.
func (i *mcpStdioInstance) Transport() string { return TransportStdio }

// Noise returns the stdout lines that were not JSON-RPC.
func (i *mcpStdioInstance) Noise() []string { return i.tap.lines() }

// Exposed returns where the server's processes listen beyond loopback.
func (i *mcpStdioInstance) Exposed(ctx context.Context) ([]string, error) {
	return i.proc.Exposed(ctx)
}

// Leftovers returns the processes Stop had to kill.
func (i *mcpStdioInstance) Leftovers() []string { return i.proc.Leftovers() }

// Alive returns an *ExitError once the process has exited, ErrStopped
// after Stop, or the error of a ping.
func (i *mcpStdioInstance) Alive(ctx context.Context) error {
	switch {
	case i.proc.stopped.Load():
		return fmt.Errorf("alive %s: %w", i.proc.name, ErrStopped)
	case i.proc.exited():
		return fmt.Errorf("alive %s: %w", i.proc.name, i.proc.exitStatus())
	}
	if err := i.ping(ctx, probeTimeout); err != nil {
		if closedWithin(ctx, i.proc.done, exitSettle) {
			return fmt.Errorf("alive %s: %w", i.proc.name, i.proc.exitStatus())
		}
		return fmt.Errorf("alive %s: %w", i.proc.name, err)
	}
	return nil
}

// Stop closes the session (the server's stdin) and ends the process.
func (i *mcpStdioInstance) Stop(ctx context.Context) error {
	_ = i.close()
	return i.proc.Stop(ctx)
}

// CallTool calls a tool; a process that died during the call is reported
// with its exit status.
func (i *mcpStdioInstance) CallTool(ctx context.Context, name string, args json.RawMessage, meta map[string]any) (*MCPCall, error) {
	call, err := i.mcpSession.CallTool(ctx, name, args, meta)
	if err != nil && closedWithin(ctx, i.proc.done, exitSettle) {
		err = fmt.Errorf("%w; %w", err, i.proc.exitStatus())
	}
	return call, err
}

// describeNoise phrases the noise lines for an error message.
func describeNoise(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "\nstdout lines that are not JSON-RPC:\n" + strings.Join(lines, "\n")
}
