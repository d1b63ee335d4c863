package record

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sync"
)

// Recorder is a recording proxy: an http.Handler that forwards every
// request to the upstream, hands the answer back unchanged and keeps the
// answers a corpus can use. Create it with [New]; it is safe for
// concurrent use. The caller serves it, bound to loopback (the Recorder
// does not check where it listens), with an http.Server that sets
// ReadHeaderTimeout; the Recorder bounds each exchange itself.
type Recorder struct {
	cfg settings

	mu      sync.Mutex
	arrived uint64 // requests so far
	answers []inOrder[Answer]
	skipped []inOrder[Skip]
}

// inOrder is a value with the arrival number of its request.
type inOrder[T any] struct {
	seq uint64
	v   T
}

// insert returns list with v of request seq, in arrival order.
func insert[T any](list []inOrder[T], seq uint64, v T) []inOrder[T] {
	i, _ := slices.BinarySearchFunc(list, seq, func(e inOrder[T], seq uint64) int { return cmp.Compare(e.seq, seq) })
	return slices.Insert(list, i, inOrder[T]{seq, v})
}

var _ http.Handler = (*Recorder)(nil)

// Answer is one recorded answer of the upstream.
type Answer struct {
	// Method and Path are the request's; Path is escaped as the client
	// sent it. RawQuery is the request's query with the value of every
	// parameter named like a secret replaced by "REDACTED".
	Method, Path, RawQuery string
	// Arguments holds the decoded values of the route's {name} segments,
	// per Config.Route or the inferred route; nil when the answer is not
	// of the inferred route's shape.
	Arguments map[string]string
	// Status is the upstream's status code.
	Status int
	// Header holds only Content-Type and the version headers
	// (X-GitHub-Api-Version, Api-Version...) whose values look like
	// versions; never a header named like a secret.
	Header http.Header
	// Body is the body as the client received it, byte for byte (after
	// transfer decoding; a content-encoded body stays encoded, with a
	// Note).
	Body []byte
	// Note says why the answer cannot be an accepted example (not 2xx,
	// not JSON, not strict JSON, encoded, off the inferred route); ""
	// when it can.
	Note string
}

// Skip is an answer that was forwarded but not recorded, or an exchange
// the upstream never answered.
type Skip struct {
	// Method and Path are the request's, Path escaped as sent.
	Method, Path string
	// Status is what the client got: the upstream's status, or the
	// proxy's own 502 or 504 when the upstream failed.
	Status int
	// Reason says why it was not recorded: off the route, longer than
	// MaxBody, over MaxAnswers, the upstream failed or broke off, the
	// client went away.
	Reason string
}

// New returns a Recorder for cfg, or an error wrapping [ErrConfig] when
// cfg has no usable Upstream, a negative limit or a malformed Route.
func New(cfg Config) (*Recorder, error) {
	s, err := cfg.settle()
	if err != nil {
		return nil, fmt.Errorf("new recorder: %w", err)
	}
	return &Recorder{cfg: s}, nil
}

// Answers returns the answers recorded so far, in arrival order, as
// copies the caller may change. Without Config.Route their Arguments
// and Notes follow the route inferred from all of them, so call it once
// the traffic is over for a view that agrees with [Recorder.Route].
func (r *Recorder) Answers() []Answer {
	r.mu.Lock()
	out := make([]Answer, len(r.answers))
	for i, a := range r.answers {
		out[i] = a.v.clone()
	}
	r.mu.Unlock()
	if r.cfg.route == nil {
		applyRoute(out)
	}
	return out
}

// Skipped returns the exchanges forwarded but not recorded so far, in
// arrival order, with why.
func (r *Recorder) Skipped() []Skip {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Skip, len(r.skipped))
	for i, s := range r.skipped {
		out[i] = s.v
	}
	return out
}

// Route returns the route template: Config.Route's method and path, or
// the route inferred from the answers recorded so far with an Inference
// for each inferred part (pointer "/request/path"). Nothing recorded
// yet gives "", "" and an Inference saying so.
func (r *Recorder) Route() (method, path string, inferences []Inference) {
	if r.cfg.route != nil {
		return r.cfg.route.method, r.cfg.route.path(), nil
	}
	r.mu.Lock()
	reqs := make([]request, len(r.answers))
	for i, a := range r.answers {
		reqs[i] = request{a.v.Method, a.v.Path}
	}
	r.mu.Unlock()
	rt, infs := inferRoute(reqs)
	if rt == nil {
		return "", "", infs
	}
	return rt.method, rt.path(), sortInferences(infs)
}

// applyRoute fills the Arguments of answers from the route inferred from
// them, and notes the answers not of its shape.
func applyRoute(answers []Answer) {
	reqs := make([]request, len(answers))
	for i, a := range answers {
		reqs[i] = request{a.Method, a.Path}
	}
	rt, _ := inferRoute(reqs)
	if rt == nil {
		return
	}
	for i := range answers {
		args, ok := rt.match(answers[i].Method, answers[i].Path)
		if !ok {
			answers[i].Note = joinNotes(answers[i].Note, fmt.Sprintf("not of the inferred route's shape (%s %s)", rt.method, rt.path()))
			continue
		}
		answers[i].Arguments = args
	}
}

// arrive returns the arrival number of a new request.
func (r *Recorder) arrive() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.arrived++
	return r.arrived
}

// record keeps a, the answer to request seq, unless MaxAnswers is
// reached; it returns false then.
func (r *Recorder) record(seq uint64, a Answer) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fullLocked() {
		return false
	}
	r.answers = insert(r.answers, seq, a)
	return true
}

// skip notes that the exchange of request seq was not recorded.
func (r *Recorder) skip(seq uint64, s Skip) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipped = insert(r.skipped, seq, s)
}

// full reports whether MaxAnswers answers are recorded.
func (r *Recorder) full() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fullLocked()
}

// fullLocked is full, with r.mu held.
func (r *Recorder) fullLocked() bool {
	return r.cfg.maxAnswers > 0 && len(r.answers) >= r.cfg.maxAnswers
}

// clone returns a deep copy of a.
func (a Answer) clone() Answer {
	a.Arguments = maps.Clone(a.Arguments)
	a.Header = a.Header.Clone()
	a.Body = slices.Clone(a.Body)
	return a
}
