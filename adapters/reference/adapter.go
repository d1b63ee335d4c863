package reference

import (
	"net/http"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
)

// Adapter is the reference adapter: an http.Handler serving
// POST /v1/tools/{tool}/invoke, POST /v1/approvals/{id} and GET /healthz.
// Build it with [New]; the caller should call Close when finished.
type Adapter pipeline.Adapter

var _ http.Handler = (*Adapter)(nil)

// New returns the adapter for cfg (zero fields take their defaults, see
// [Config]). It loads the policy file when cfg.PolicyFile is set (an error
// says why it does not parse) and opens the audit file when cfg.AuditFile
// is set.
func New(cfg Config) (*Adapter, error) {
	p, err := pipeline.New(cfg)
	if err != nil {
		return nil, err
	}
	return (*Adapter)(p), nil
}

// Config returns the adapter's configuration, defaults filled in.
func (a *Adapter) Config() Config { return a.pipeline().Config() }

// ServeHTTP routes the agent's request.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.pipeline().ServeHTTP(w, r)
}

// Close closes the audit file and the fetcher the adapter opened.
func (a *Adapter) Close() error { return a.pipeline().Close() }

// pipeline returns the implementation a is.
func (a *Adapter) pipeline() *pipeline.Adapter { return (*pipeline.Adapter)(a) }
