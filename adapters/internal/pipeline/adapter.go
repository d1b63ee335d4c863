package pipeline

import (
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// Adapter is the reference adapter: an http.Handler serving
// POST /v1/tools/{tool}/invoke, POST /v1/approvals/{id} and GET /healthz.
// Build it with [New]; the caller should call Close when finished.
type Adapter struct {
	cfg       Config
	s         settings
	base      string
	tools     map[string]compiledTool
	names     []string // of tools, sorted
	policy    *gate.Policy
	approvals ApprovalStore
	fetcher   Fetcher
	closers   []io.Closer
	audit     *gate.AuditLog
	handler   http.Handler // the mux, wrapped by the middleware option
	maxInput  int64
}

var _ http.Handler = (*Adapter)(nil)

// compiledTool is a tool with its compiled schemas.
type compiledTool struct {
	tool
	schemas toolSchemas
}

// New returns the adapter for cfg (zero fields take their defaults, see
// [Config]) with the stages changed by opts. It loads the policy file when
// cfg.PolicyFile is set (an error says why it does not parse) and opens the
// audit file when cfg.AuditFile is set.
func New(cfg Config, opts ...Option) (*Adapter, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, fmt.Errorf("reference adapter: %w", err)
	}
	s := defaultSettings()
	for _, o := range opts {
		o(&s)
	}
	a := &Adapter{cfg: cfg, s: s, base: strings.TrimSuffix(cfg.UpstreamURL, "/"), tools: map[string]compiledTool{}, maxInput: protocol.MaxInvocationBytes}
	for _, t := range referenceTools() {
		sch, err := compileSchemas(t, s)
		if err != nil {
			return nil, fmt.Errorf("reference adapter: %w", err)
		}
		a.tools[t.name] = compiledTool{tool: t, schemas: sch}
	}
	a.names = slices.Sorted(maps.Keys(a.tools))
	if err := a.loadPolicy(); err != nil {
		return nil, fmt.Errorf("reference adapter: %w", err)
	}
	if err := a.addClones(); err != nil {
		return nil, fmt.Errorf("reference adapter: %w", err)
	}
	a.approvals = s.approvals(a.policy.ApprovalTTL, cfg.Now)
	if err := a.openAudit(); err != nil {
		return nil, fmt.Errorf("reference adapter: %w", err)
	}
	a.fetcher = s.fetcher
	if a.fetcher == nil {
		f := gate.NewFetcher(FetcherOptions(cfg)...)
		a.fetcher, a.closers = f, append(a.closers, f)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/tools/{tool}/invoke", a.handleInvoke)
	mux.HandleFunc("POST /v1/approvals/{id}", a.handleApproval)
	mux.HandleFunc("GET /healthz", handleHealth)
	a.handler = s.middleware(mux)
	return a, nil
}

// openAudit picks the audit sink: the writer option, the file, or stderr.
func (a *Adapter) openAudit() error {
	switch {
	case a.s.audit != nil:
		a.audit = gate.NewAuditLog(a.s.audit)
	case a.cfg.AuditFile != "":
		log, err := gate.OpenAuditLog(a.cfg.AuditFile)
		if err != nil {
			return err
		}
		a.audit, a.closers = log, append(a.closers, log)
	default:
		a.audit = gate.NewAuditLog(os.Stderr)
	}
	return nil
}

// Config returns the adapter's configuration, defaults filled in.
func (a *Adapter) Config() Config { return a.cfg }

// ServeHTTP routes the agent's request.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.handler.ServeHTTP(w, r)
}

// Close closes the audit file and the fetcher the adapter opened.
func (a *Adapter) Close() error {
	var first error
	for _, c := range a.closers {
		if err := c.Close(); err != nil && first == nil {
			first = fmt.Errorf("close reference adapter: %w", err)
		}
	}
	a.closers = nil
	return first
}

// handleHealth answers the readiness probe.
func handleHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, "ok\n")
}
