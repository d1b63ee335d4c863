package targets

import (
	"fmt"
	"net"
	"net/url"
)

// Spec names the adapter under test the way a user does: a command to
// start per lane, an image to run per lane, or the URL of an adapter
// already running, with what such a run needs. The zero Spec names no
// target.
type Spec struct {
	// Command is the command line of a process per lane ("CMD ARGS",
	// split by SplitCommand).
	Command string
	// Image is a local Docker image to run per lane.
	Image string
	// URL is the base URL of an adapter that is already running.
	URL string
	// MCPCommand is the command line of an MCP server per lane, speaking
	// JSON-RPC on stdin and stdout.
	MCPCommand string
	// MCPURL is the endpoint of an MCP server already serving streamable
	// HTTP.
	MCPURL string
	// UpstreamListen is the loopback host:port the mock upstream listens on
	// for an adapter at URL, which must be wired to it.
	UpstreamListen string
	// AuditFile is the audit log of the adapter at URL, when the harness
	// can read it.
	AuditFile string
	// Rename maps protocol variable names to the adapter's own names, for
	// a process or an image.
	Rename map[string]string
}

// SpecError is the error of Spec.Build: Flag names the field at fault as
// its flag ("" when the fault is the combination), Err says what is wrong.
type SpecError struct {
	Flag string
	Err  error
}

// Error returns "flag: what is wrong".
func (e *SpecError) Error() string {
	if e.Flag == "" {
		return e.Err.Error()
	}
	return e.Flag + ": " + e.Err.Error()
}

// Unwrap returns what is wrong.
func (e *SpecError) Unwrap() error { return e.Err }

// specErr returns a *SpecError of flag with a message built like fmt.Errorf.
func specErr(flag, format string, args ...any) error {
	return &SpecError{Flag: flag, Err: fmt.Errorf(format, args...)}
}

// Empty reports whether s names no target.
func (s Spec) Empty() bool {
	return countSet(s.Command, s.Image, s.URL, s.MCPCommand, s.MCPURL) == 0
}

// Build returns the target s names, or nil when s names none. Command,
// Image, URL, MCPCommand and MCPURL exclude each other; UpstreamListen (required, on loopback)
// and AuditFile go with URL only. Every error is a *SpecError naming the
// field as its flag (--target-cmd, --target-image, --target-url,
// --target-mcp-cmd, --target-mcp-url, --upstream-listen, --audit-file).
func (s Spec) Build() (Target, error) {
	switch {
	case countSet(s.Command, s.URL, s.Image, s.MCPCommand, s.MCPURL) > 1:
		return nil, specErr("", "--target-cmd, --target-url, --target-image, --target-mcp-cmd and --target-mcp-url exclude each other")
	case s.MCPCommand != "":
		argv, err := SplitCommand(s.MCPCommand)
		if err != nil {
			return nil, &SpecError{Flag: "--target-mcp-cmd", Err: err}
		}
		t, err := NewMCPStdio(argv, WithRename(s.Rename))
		if err != nil {
			return nil, &SpecError{Flag: "--target-mcp-cmd", Err: err}
		}
		return t, nil
	case s.MCPURL != "":
		if err := s.checkUpstreamListen("--target-mcp-url"); err != nil {
			return nil, err
		}
		t, err := NewMCPURL(s.MCPURL)
		if err != nil {
			return nil, &SpecError{Flag: "--target-mcp-url", Err: err}
		}
		return t, nil
	case s.URL != "":
		return s.buildURL()
	case s.UpstreamListen != "" || s.AuditFile != "":
		return nil, specErr("", "--upstream-listen and --audit-file go with --target-url")
	case s.Command != "":
		argv, err := SplitCommand(s.Command)
		if err != nil {
			return nil, &SpecError{Flag: "--target-cmd", Err: err}
		}
		p, err := NewProcess(argv, WithRename(s.Rename))
		if err != nil {
			return nil, &SpecError{Flag: "--target-cmd", Err: err}
		}
		return p, nil
	case s.Image != "":
		c, err := NewContainer(s.Image, WithContainerRename(s.Rename))
		if err != nil {
			return nil, &SpecError{Flag: "--target-image", Err: err}
		}
		return c, nil
	}
	return nil, nil
}

// buildURL returns the URL target of s, checking its mock address.
func (s Spec) buildURL() (Target, error) {
	if err := s.checkUpstreamListen("--target-url"); err != nil {
		return nil, err
	}
	if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, specErr("--target-url", "want an http URL such as http://127.0.0.1:8080, got %q", s.URL)
	}
	u, err := NewURL(s.URL)
	if err != nil {
		return nil, &SpecError{Flag: "--target-url", Err: err}
	}
	return u, nil
}

// checkUpstreamListen checks the mock's address that an adapter already
// running, named by flag, is wired to.
func (s Spec) checkUpstreamListen(flag string) error {
	if s.UpstreamListen == "" {
		return specErr("", "%s needs --upstream-listen: the address the running adapter sends its upstream requests to", flag)
	}
	host, _, err := net.SplitHostPort(s.UpstreamListen)
	if err != nil {
		return &SpecError{Flag: "--upstream-listen", Err: err}
	}
	if !isLoopback(host) {
		return specErr("--upstream-listen", "%q is not a loopback address", host)
	}
	return nil
}

// countSet returns how many of values are not "".
func countSet(values ...string) int {
	n := 0
	for _, v := range values {
		if v != "" {
			n++
		}
	}
	return n
}
