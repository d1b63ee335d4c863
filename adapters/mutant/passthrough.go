package mutant

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/gate"
)

// excerptHeader is the debugging header the upstream-excerpt-in-header
// mutant adds to the agent's answer.
const excerptHeader = "X-Upstream-Excerpt"

// excerptBytes bounds the excerpt.
const excerptBytes = 256

// passThroughMutants returns the mutants that carry something of the
// upstream's last answer into the agent's response headers: debugging and
// proxy habits that bypass every gate of the body.
func passThroughMutants() map[string]mutant {
	return map[string]mutant{
		"upstream-excerpt-in-header": {
			"the agent's answer carries the first bytes of the upstream's body in an " + excerptHeader + " header, printable ASCII only",
			passThrough(func(f gate.Fetched, h http.Header) {
				if len(f.Raw) > 0 {
					h.Set(excerptHeader, printable(f.Raw[:min(len(f.Raw), excerptBytes)]))
				}
			}),
		},
		"upstream-headers-forwarded": {
			"the upstream's X-* response headers are copied onto the agent's answer, as a proxy would",
			passThrough(func(f gate.Fetched, h http.Header) {
				for name, values := range f.Header {
					if strings.HasPrefix(http.CanonicalHeaderKey(name), "X-") {
						for _, v := range values {
							h.Add(name, printable([]byte(v)))
						}
					}
				}
			}),
		},
	}
}

// passThrough returns the options of a mutant that calls add with the
// call's last upstream answer and the agent's response headers, just
// before the response status is written.
func passThrough(add func(f gate.Fetched, h http.Header)) func(pipeline.Config) []pipeline.Option {
	return func(cfg pipeline.Config) []pipeline.Option {
		return []pipeline.Option{
			pipeline.WithMiddleware(func(next http.Handler) http.Handler { return withLastAnswer(next, add) }),
			pipeline.WithFetcher(&recording{Fetcher: defaultFetcher(cfg)}),
		}
	}
}

// lastKey is the context key of the call's *last.
type lastKey struct{}

// last holds the last upstream answer of one agent call.
type last struct {
	mu  sync.Mutex
	got gate.Fetched
	set bool
}

// withLastAnswer gives each agent call a *last and lets add write headers
// from it.
func withLastAnswer(next http.Handler, add func(gate.Fetched, http.Header)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := &last{}
		r = r.WithContext(context.WithValue(r.Context(), lastKey{}, l))
		next.ServeHTTP(&lastWriter{ResponseWriter: w, last: l, add: add}, r)
	})
}

// lastWriter adds the headers before the status is written.
type lastWriter struct {
	http.ResponseWriter
	last *last
	add  func(gate.Fetched, http.Header)
}

// WriteHeader adds the headers, then writes the status.
func (w *lastWriter) WriteHeader(code int) {
	w.last.mu.Lock()
	got, set := w.last.got, w.last.set
	w.last.mu.Unlock()
	if set {
		w.add(got, w.Header())
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

// recording keeps every answer it fetches as the call's last.
type recording struct {
	*gate.Fetcher
}

// Get fetches and records the answer.
func (r *recording) Get(ctx context.Context, url string) (gate.Fetched, error) {
	out, err := r.Fetcher.Get(ctx, url)
	if l, ok := ctx.Value(lastKey{}).(*last); ok {
		l.mu.Lock()
		l.got, l.set = out, true
		l.mu.Unlock()
	}
	return out, err
}
