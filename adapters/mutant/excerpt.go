package mutant

import (
	"context"
	"net/http"
	"sync"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/gate"
)

// excerptHeader is the debugging header the upstream-excerpt-in-header
// mutant adds to the agent's answer.
const excerptHeader = "X-Upstream-Excerpt"

// excerptBytes bounds the excerpt.
const excerptBytes = 256

// excerptMutant returns the mutant that tells the agent, in a response
// header, how the upstream's answer began: a debugging aid that carries
// rejected bytes past every gate.
func excerptMutant() mutant {
	return mutant{
		"the agent's answer carries the first bytes of the upstream's body in an " + excerptHeader + " header, printable ASCII only",
		func(cfg reference.Config) []reference.Option {
			return []reference.Option{
				reference.WithMiddleware(withExcerpt),
				reference.WithFetcher(&excerpting{Fetcher: defaultFetcher(cfg)}),
			}
		},
	}
}

// excerptKey is the context key of the call's *excerpt.
type excerptKey struct{}

// excerpt holds the first bytes of the last upstream body of one call.
type excerpt struct {
	mu  sync.Mutex
	raw []byte
}

// withExcerpt gives each agent call an excerpt and writes it as a header.
func withExcerpt(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ex := &excerpt{}
		r = r.WithContext(context.WithValue(r.Context(), excerptKey{}, ex))
		next.ServeHTTP(&excerptWriter{ResponseWriter: w, ex: ex}, r)
	})
}

// excerptWriter adds the excerpt header before the status is written.
type excerptWriter struct {
	http.ResponseWriter
	ex *excerpt
}

// WriteHeader adds the header, then writes the status.
func (w *excerptWriter) WriteHeader(code int) {
	w.ex.mu.Lock()
	raw := w.ex.raw
	w.ex.mu.Unlock()
	if len(raw) > 0 {
		w.Header().Set(excerptHeader, printable(raw))
	}
	w.ResponseWriter.WriteHeader(code)
}

// printable returns raw with every byte outside printable ASCII replaced
// by a space.
func printable(raw []byte) string {
	out := make([]byte, len(raw))
	for i, b := range raw {
		if b < 0x20 || b > 0x7e {
			b = ' '
		}
		out[i] = b
	}
	return string(out)
}

// excerpting records the first bytes of every body it fetches in the
// call's excerpt.
type excerpting struct {
	*gate.Fetcher
}

// Get fetches and records the excerpt.
func (e *excerpting) Get(ctx context.Context, url string) (gate.Fetched, error) {
	out, err := e.Fetcher.Get(ctx, url)
	if ex, ok := ctx.Value(excerptKey{}).(*excerpt); ok {
		ex.mu.Lock()
		ex.raw = append([]byte(nil), out.Raw[:min(len(out.Raw), excerptBytes)]...)
		ex.mu.Unlock()
	}
	return out, err
}
