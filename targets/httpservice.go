package targets

import "context"

// HTTPService is a Target that is a JSON-over-HTTP tool service with
// request shapes of its own (KindHTTP): a process per lane or a server
// already running, called by the tool maps (ToolMap's Method, Path, Header
// and Body) rather than by protocol v1.
type HTTPService struct {
	inner Target
}

var _ Target = (*HTTPService)(nil)

// NewHTTPService marks inner, a Process or a URL target, as an HTTP tool
// service.
func NewHTTPService(inner Target) *HTTPService { return &HTTPService{inner: inner} }

// String returns "http " and what the inner target names.
func (t *HTTPService) String() string { return "http " + t.inner.String() }

// Start starts the inner target.
func (t *HTTPService) Start(ctx context.Context, env Env) (Instance, error) {
	return t.inner.Start(ctx, env)
}
