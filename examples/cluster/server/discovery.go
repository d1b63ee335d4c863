package main

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// discovery is what a client-go based server does before its first
// request: it asks the cluster API which versions and groups it serves,
// and keeps the answer for the life of the process. The outcome, success
// or failure, is kept: a failed discovery is never asked again, and every
// later call fails with it. Only a discovery the caller gave up on (its
// context done) is not kept.
type discovery struct {
	baseURL string
	fetch   *gate.Fetcher

	mu   sync.Mutex
	done bool
	err  error // the kept outcome, once done
}

// errDiscovery is the kept failure of a discovery: its detail goes to the
// log, its fixed code to the agent.
var errDiscovery = errors.New("discovery failed")

// ensure runs the discovery once and returns its kept outcome: nil, or a
// *gate.Rejection that every later call reports as it is.
func (d *discovery) ensure(ctx context.Context) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done {
		return d.err
	}
	err := d.discover(ctx)
	if err != nil && ctx.Err() != nil {
		return err // the caller left: not an outcome of the cluster's
	}
	d.done, d.err = true, err
	return err
}

// discover asks GET /api (an APIVersions that serves v1) and GET /apis
// (an APIGroupList).
func (d *discovery) discover(ctx context.Context) error {
	versions, err := d.get(ctx, "/api", "APIVersions")
	if err != nil {
		return err
	}
	if list, _ := versions["versions"].([]any); !slices.Contains(list, any("v1")) {
		return failed("/api serves no v1: %v", versions["versions"])
	}
	_, err = d.get(ctx, "/apis", "APIGroupList")
	return err
}

// get fetches path, parses it strictly and checks that it is an object of
// the kind want.
func (d *discovery) get(ctx context.Context, path, want string) (map[string]any, error) {
	fetched, err := d.fetch.Get(ctx, d.baseURL+path)
	if err != nil {
		return nil, failed("GET %s: %w", path, err)
	}
	doc, err := gate.ParseJSON(fetched.Raw, gate.DefaultLimits())
	if err != nil {
		return nil, failed("GET %s: %w", path, err)
	}
	obj, _ := doc.(map[string]any)
	if kind, _ := obj["kind"].(string); kind != want {
		return nil, failed("GET %s: kind %q, want %q", path, obj["kind"], want)
	}
	return obj, nil
}

// failed is the kept failure of a discovery: the cluster API is not
// usable, and will not be for this process, so it is not retryable.
func failed(format string, args ...any) *gate.Rejection {
	return gate.Reject(protocol.GateTransport, protocol.ReasonUnexpectedStatus, "%w: "+format, append([]any{errDiscovery}, args...)...)
}
