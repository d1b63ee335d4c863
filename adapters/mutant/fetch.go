package mutant

import (
	"context"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// fetchMutants returns the mutants that change how the upstream is fetched
// or how the fetch is recorded, by name.
func fetchMutants() map[string]mutant {
	return map[string]mutant{
		"no-retry": {
			"a 5xx, 429 or transport fault is never retried: one attempt per call",
			func(cfg pipeline.Config) []pipeline.Option { return fetcher(cfg, gate.WithMaxAttempts(1)) },
		},
		"retry-off-by-one": {
			"the attempt loop runs one attempt past the budget",
			func(cfg pipeline.Config) []pipeline.Option {
				return fetcher(cfg, gate.WithMaxAttempts(cfg.MaxAttempts+1))
			},
		},
		"retries-client-errors": {
			"404 and other 4xx answers are retried like 5xx, within the budget",
			func(cfg pipeline.Config) []pipeline.Option {
				retry := append(slices.Clone(retriedReasons), protocol.ReasonStatus404, protocol.ReasonStatus4xx)
				return wrap(newRetrying(cfg, cfg.Deadline, retry))
			},
		},
		"deadline-per-attempt": {
			"the time budget applies to each attempt, not to the call: a slow upstream gets it once per retry",
			func(cfg pipeline.Config) []pipeline.Option {
				retry := append(slices.Clone(retriedReasons), protocol.ReasonDeadline)
				return wrap(newRetrying(cfg, 0, retry))
			},
		},
		"reads-whole-body": {
			"the byte limit is checked after the whole body was read: an oversized answer is drained to its end, not cut off",
			func(cfg pipeline.Config) []pipeline.Option {
				// The drain runs to the end of the body: a deadline that cut it
				// would hide the mutant on a slow machine.
				inner := gate.NewFetcher(append(pipeline.FetcherOptions(cfg), gate.WithMaxBytes(math.MaxInt64), gate.WithDeadline(time.Minute))...)
				return wrap(&drained{Fetcher: inner, limit: cfg.Limits.MaxBytes})
			},
		},
		"no-idempotency-key": {
			"an approved send reaches the upstream without its Idempotency-Key",
			func(cfg pipeline.Config) []pipeline.Option {
				return wrap(&edited{Fetcher: defaultFetcher(cfg), post: func(h http.Header) { h.Del(protocol.IdempotencyKeyHeader) }})
			},
		},
		"order-refetched": {
			"request_refund reads the trusted order twice (ownership, then balance): the two checks may see two records",
			func(cfg pipeline.Config) []pipeline.Option {
				return wrap(&refetched{Fetcher: defaultFetcher(cfg), path: "/orders/"})
			},
		},
	}
}

// retriedReasons are the rejections the reference retries.
var retriedReasons = []string{protocol.ReasonConnection, protocol.ReasonTimeout, protocol.ReasonStatus5xx, protocol.ReasonStatus429}

// wrap returns the option that installs f as the adapter's fetcher.
func wrap(f pipeline.Fetcher) []pipeline.Option {
	return []pipeline.Option{pipeline.WithFetcher(f)}
}

// defaultFetcher returns a fetcher built like the reference's.
func defaultFetcher(cfg pipeline.Config) *gate.Fetcher {
	return gate.NewFetcher(pipeline.FetcherOptions(cfg)...)
}

// retrying is a fetcher with its own retry loop around single attempts:
// it retries the reasons in retry, up to the attempt budget, inside total
// (0: no bound on the call, each attempt still has the configured deadline).
type retrying struct {
	single   *gate.Fetcher
	attempts int
	total    time.Duration
	retry    []string
	backoff  time.Duration
}

// newRetrying returns the retrying fetcher for cfg.
func newRetrying(cfg pipeline.Config, total time.Duration, retry []string) *retrying {
	single := gate.NewFetcher(append(pipeline.FetcherOptions(cfg), gate.WithMaxAttempts(1))...)
	return &retrying{single: single, attempts: cfg.MaxAttempts, total: total, retry: retry, backoff: 25 * time.Millisecond}
}

// Get sends up to the budget of attempts, retrying the reasons of r.retry.
func (r *retrying) Get(ctx context.Context, url string) (gate.Fetched, error) {
	if r.total > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.total)
		defer cancel()
	}
	for n := 1; ; n++ {
		out, err := r.single.Get(ctx, url)
		out.Attempts = n
		rej, ok := gate.AsRejection(err)
		if err == nil || !ok || !slices.Contains(r.retry, rej.Reason) || n >= r.attempts || ctx.Err() != nil {
			return out, err
		}
		time.Sleep(r.backoff)
	}
}

// Post sends once.
func (r *retrying) Post(ctx context.Context, url string, body []byte, h http.Header) (gate.Fetched, error) {
	return r.single.Post(ctx, url, body, h)
}

// drained reads whole bodies and applies the byte limit afterwards.
type drained struct {
	*gate.Fetcher
	limit int64
}

// Get reads the whole body, then rejects it when it is past the limit.
func (d *drained) Get(ctx context.Context, url string) (gate.Fetched, error) {
	out, err := d.Fetcher.Get(ctx, url)
	if int64(len(out.Raw)) > d.limit {
		out.Raw = out.Raw[:d.limit+1]
		if out.Status == http.StatusOK { // another status decides, as in the reference
			err = gate.Reject(protocol.GateTransport, protocol.ReasonByteLimit, "body past %d bytes", d.limit)
		}
	}
	return out, err
}

// edited changes the header of every POST before it is sent.
type edited struct {
	*gate.Fetcher
	post func(http.Header)
}

// Post edits the header, then sends.
func (e *edited) Post(ctx context.Context, url string, body []byte, h http.Header) (gate.Fetched, error) {
	h = h.Clone()
	e.post(h)
	return e.Fetcher.Post(ctx, url, body, h)
}

// refetched fetches every URL containing path twice and returns the
// second answer.
type refetched struct {
	*gate.Fetcher
	path string
}

// Get fetches once, and again for the URLs of r.path.
func (r *refetched) Get(ctx context.Context, url string) (gate.Fetched, error) {
	out, err := r.Fetcher.Get(ctx, url)
	if err != nil || !strings.Contains(url, r.path) {
		return out, err
	}
	again, err := r.Fetcher.Get(ctx, url)
	again.Attempts += out.Attempts
	return again, err
}
