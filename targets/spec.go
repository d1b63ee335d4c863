package targets

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// The kinds of target a Spec names.
const (
	// KindV1Process runs a protocol v1 adapter as a local process per lane.
	KindV1Process = "v1-process"
	// KindV1URL uses a protocol v1 adapter that is already running.
	KindV1URL = "v1-url"
	// KindV1Image runs a protocol v1 adapter from a local Docker image per
	// lane.
	KindV1Image = "v1-image"
	// KindMCPStdio runs an MCP server per lane on stdin and stdout.
	KindMCPStdio = "mcp-stdio"
	// KindMCPHTTP reaches an MCP server over streamable HTTP: one already
	// running at URL, or one started per lane from Command.
	KindMCPHTTP = "mcp-http"
	// KindHTTP is a JSON-over-HTTP tool service with request shapes of its
	// own: one already running at URL, or one started per lane from
	// Command; the tool maps say how each tool is called.
	KindHTTP = "http"
)

// Kinds returns the kinds a Spec may name.
func Kinds() []string {
	return []string{KindV1Process, KindV1URL, KindV1Image, KindMCPStdio, KindMCPHTTP, KindHTTP}
}

// Spec names the adapter under test the way a user does, with a flag or a
// config file: its kind and how to start or reach it. The zero Spec names
// no target.
type Spec struct {
	// Kind is one of Kinds(); "" names no target.
	Kind string
	// Command is the command line of a process per lane ("CMD ARGS", split
	// by SplitCommand), or Argv its words; the words may name the lane's
	// values ({{.UpstreamURL}}, see LaneValues).
	Command string
	Argv    []string
	// Image is a local Docker image to run per lane (KindV1Image).
	Image string
	// URL is the base URL of an adapter already running (KindV1URL), or
	// the endpoint of an MCP server already running (KindMCPHTTP).
	URL string
	// Path is the endpoint path of an MCP server started per lane
	// (KindMCPHTTP with a Command; default DefaultMCPPath).
	Path string
	// Health is the path of an HTTP tool service's health endpoint
	// (KindHTTP), polled until it answers 200; "" is ready once its
	// address accepts a connection.
	Health string
	// Env are variables added to a started target's environment; values
	// may name the lane's values.
	Env map[string]string
	// Files are written for each lane before its target starts.
	Files []FileTemplate
	// ReadyTimeout bounds how long Start waits for the target to be ready
	// (0: the driver's default, protocol.ReadyTimeout).
	ReadyTimeout time.Duration
	// UpstreamListen is the loopback host:port the mock upstream listens
	// on for a target that is already running, which must be wired to it.
	UpstreamListen string
	// AuditFile is the audit log of a target that is already running,
	// when the harness can read it.
	AuditFile string
	// Rename maps protocol variable names to the adapter's own names, for
	// a process or an image.
	Rename map[string]string
}

// SpecError is the error of Spec.Build: Field names the field at fault
// ("" when the fault is the combination), Err says what is wrong.
type SpecError struct {
	Field string
	Err   error
}

// Error returns "field: what is wrong".
func (e *SpecError) Error() string {
	if e.Field == "" {
		return e.Err.Error()
	}
	return e.Field + ": " + e.Err.Error()
}

// Unwrap returns what is wrong.
func (e *SpecError) Unwrap() error { return e.Err }

// specErr returns a *SpecError of field with a message built like
// fmt.Errorf.
func specErr(field, format string, args ...any) error {
	return &SpecError{Field: field, Err: fmt.Errorf(format, args...)}
}

// running reports whether the kind names a target that is already running.
func (s Spec) running() bool {
	return s.Kind == KindV1URL || ((s.Kind == KindMCPHTTP || s.Kind == KindHTTP) && s.URL != "" && !s.hasCommand())
}

// hasCommand reports whether s gives a command.
func (s Spec) hasCommand() bool { return s.Command != "" || len(s.Argv) > 0 }

// Build returns the target s names, or nil for the zero Spec. Every error
// is a *SpecError naming the field at fault: a kind without what it needs,
// or with what it cannot use (UpstreamListen and AuditFile go with a
// target already running only).
func (s Spec) Build() (Target, error) {
	if s.Kind == "" {
		return nil, nil
	}
	if !slices.Contains(Kinds(), s.Kind) {
		return nil, specErr("kind", "%q is not one of %s", s.Kind, strings.Join(Kinds(), ", "))
	}
	if s.running() {
		if err := s.checkUpstreamListen(); err != nil {
			return nil, err
		}
	} else if s.UpstreamListen != "" || s.AuditFile != "" {
		return nil, specErr("", "upstream-listen and audit-file go with a target that is already running (v1-url, or mcp-http or http with a url)")
	}
	switch s.Kind {
	case KindV1Process, KindMCPStdio:
		return s.buildProcess()
	case KindV1URL:
		return s.buildURL()
	case KindV1Image:
		return s.buildImage()
	case KindHTTP:
		return s.buildHTTP()
	}
	return s.buildMCPHTTP()
}

// argv returns the command's words.
func (s Spec) argv() ([]string, error) {
	if len(s.Argv) > 0 {
		return slices.Clone(s.Argv), nil
	}
	if s.Command == "" {
		return nil, specErr("command", "%s needs a command", s.Kind)
	}
	argv, err := SplitCommand(s.Command)
	if err != nil {
		return nil, &SpecError{Field: "command", Err: err}
	}
	return argv, nil
}

// processOptions are the options of a process s starts.
func (s Spec) processOptions() []ProcessOption {
	opts := []ProcessOption{WithRename(s.Rename), WithExtraEnv(s.Env), WithFiles(s.Files...)}
	if s.ReadyTimeout > 0 {
		opts = append(opts, WithReadyTimeout(s.ReadyTimeout))
	}
	return opts
}

// buildProcess returns a v1 process or an MCP stdio server.
func (s Spec) buildProcess() (Target, error) {
	argv, err := s.argv()
	if err != nil {
		return nil, err
	}
	var t Target
	if s.Kind == KindMCPStdio {
		t, err = NewMCPStdio(argv, s.processOptions()...)
	} else {
		t, err = NewProcess(argv, s.processOptions()...)
	}
	if err != nil {
		return nil, &SpecError{Field: "command", Err: err}
	}
	return t, nil
}

// buildImage returns a container target.
func (s Spec) buildImage() (Target, error) {
	if s.Image == "" {
		return nil, specErr("image", "%s needs an image", s.Kind)
	}
	if len(s.Files) > 0 {
		return nil, specErr("files", "%s does not take files written per lane: mount them in the image", s.Kind)
	}
	opts := []ContainerOption{WithContainerRename(s.Rename), WithContainerEnv(s.Env)}
	if s.ReadyTimeout > 0 {
		opts = append(opts, WithReadyTimeout(s.ReadyTimeout))
	}
	c, err := NewContainer(s.Image, opts...)
	if err != nil {
		return nil, &SpecError{Field: "image", Err: err}
	}
	return c, nil
}

// buildURL returns a target already running at s.URL.
func (s Spec) buildURL() (Target, error) {
	if u, err := url.Parse(s.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, specErr("url", "want an http URL such as http://127.0.0.1:8080, got %q", s.URL)
	}
	var opts []URLOption
	if s.ReadyTimeout > 0 {
		opts = append(opts, WithReadyTimeout(s.ReadyTimeout))
	}
	u, err := NewURL(s.URL, opts...)
	if err != nil {
		return nil, &SpecError{Field: "url", Err: err}
	}
	return u, nil
}

// buildMCPHTTP returns an MCP server over streamable HTTP: one already
// running at URL, or one started per lane from the command.
func (s Spec) buildMCPHTTP() (Target, error) {
	if !s.hasCommand() {
		if s.URL == "" {
			return nil, specErr("", "%s needs a url (a server already running) or a command (one per lane)", s.Kind)
		}
		var opts []URLOption
		if s.ReadyTimeout > 0 {
			opts = append(opts, WithReadyTimeout(s.ReadyTimeout))
		}
		t, err := NewMCPURL(s.URL, opts...)
		if err != nil {
			return nil, &SpecError{Field: "url", Err: err}
		}
		return t, nil
	}
	argv, err := s.argv()
	if err != nil {
		return nil, err
	}
	t, err := NewMCPHTTPProcess(argv, s.Path, s.processOptions()...)
	if err != nil {
		return nil, &SpecError{Field: "path", Err: err}
	}
	return t, nil
}

// buildHTTP returns an HTTP tool service: one already running at URL, or
// one started per lane from the command, ready by its health path.
func (s Spec) buildHTTP() (Target, error) {
	if !s.hasCommand() {
		if s.URL == "" {
			return nil, specErr("", "%s needs a url (a service already running) or a command (one per lane)", s.Kind)
		}
		opts := []URLOption{WithHealth(s.Health)}
		if s.ReadyTimeout > 0 {
			opts = append(opts, WithReadyTimeout(s.ReadyTimeout))
		}
		u, err := NewURL(s.URL, opts...)
		if err != nil {
			return nil, &SpecError{Field: "url", Err: err}
		}
		return NewHTTPService(u), nil
	}
	argv, err := s.argv()
	if err != nil {
		return nil, err
	}
	p, err := NewProcess(argv, append(s.processOptions(), WithHealth(s.Health))...)
	if err != nil {
		return nil, &SpecError{Field: "command", Err: err}
	}
	return NewHTTPService(p), nil
}

// checkUpstreamListen checks the mock's address that a target already
// running is wired to.
func (s Spec) checkUpstreamListen() error {
	if s.UpstreamListen == "" {
		return specErr("", "a %s target that is already running needs upstream-listen: the address it sends its upstream requests to", s.Kind)
	}
	host, _, err := net.SplitHostPort(s.UpstreamListen)
	if err != nil {
		return &SpecError{Field: "upstream-listen", Err: err}
	}
	if !isLoopback(host) {
		return specErr("upstream-listen", "%q is not a loopback address", host)
	}
	return nil
}
