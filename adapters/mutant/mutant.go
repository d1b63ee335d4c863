// Package mutant builds mutant adapters: the reference adapter with exactly
// one protection removed. toolcert must fail each of them; a mutant it
// passes names a protection its scenarios do not prove.
package mutant

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/toolcert/toolcert/adapters/internal/pipeline"
	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// mutant is one entry of the table: what it removes and how.
type mutant struct {
	describe string
	options  func(cfg pipeline.Config) []pipeline.Option
}

// mutants returns the table of mutants by name: the read side's, the
// fetch's ([fetchMutants]), the audit's ([auditMutants]), the call side's
// ([callMutants]) and those that pass upstream bytes through headers
// ([passThroughMutants]).
func mutants() map[string]mutant {
	m := readMutants()
	maps.Copy(m, fetchMutants())
	maps.Copy(m, auditMutants())
	maps.Copy(m, callMutants())
	maps.Copy(m, passThroughMutants())
	maps.Copy(m, argumentMutants())
	maps.Copy(m, decodeMutants())
	mcpOnly, _ := mcpMutants()
	maps.Copy(m, mcpOnly)
	return m
}

// readMutants returns the read-side mutants by name.
func readMutants() map[string]mutant {
	return map[string]mutant{
		"duplicate-last-wins": {
			"the parser accepts duplicate member names, the last one wins",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithParser(parseLastWins)}
			},
		},
		"additional-properties-ignored": {
			"vendor schemas are compiled without additionalProperties/unevaluatedProperties false",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithVendorSchemaTransform(openSchema)}
			},
		},
		"upstream-message-forwarded": {
			"the upstream's free-text message is forwarded to the agent as data.message",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithProjection(forwardMessage), pipeline.WithContractCheck(false)}
			},
		},
		"freshness-unchecked": {
			"observed_at is parsed but not checked against the freshness window or the future skew",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithFreshnessCheck(false)}
			},
		},
		"no-byte-limit": {
			"the whole upstream body is read, however large (bounded by the deadline only)",
			func(cfg pipeline.Config) []pipeline.Option {
				return fetcher(cfg, gate.WithMaxBytes(math.MaxInt64))
			},
		},
		"upstream-request-id-echoed": {
			"the upstream body's request_id replaces the adapter's in the envelope and the audit",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithRequestIDFrom(upstreamRequestID)}
			},
		},
		"validator-text-in-error": {
			"the failure envelope's error carries the operator detail (validator and parse messages)",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithFailureDetail(true)}
			},
		},
		"retryable-inverted": {
			"every failure envelope says the opposite of whether a retry can help",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithFailureCode(func(c protocol.Code, r bool) (protocol.Code, bool) { return c, !r })}
			},
		},
		"codes-collapsed": {
			"every failure is " + string(protocol.CodeInvalidResponse) + ": the agent cannot tell a missing record or an outage from bad data",
			func(pipeline.Config) []pipeline.Option {
				return []pipeline.Option{pipeline.WithFailureCode(func(protocol.Code, bool) (protocol.Code, bool) {
					return protocol.CodeInvalidResponse, false
				})}
			},
		},
		"unbounded-retries": {
			"retries have no attempt cap and no total deadline; they stop only when the agent's call is cancelled",
			func(cfg pipeline.Config) []pipeline.Option {
				return fetcher(cfg, gate.WithMaxAttempts(math.MaxInt), gate.WithDeadline(100*365*24*time.Hour),
					gate.WithBackoff(25*time.Millisecond, 100*time.Millisecond))
			},
		},
	}
}

// Names returns the names of the mutants, sorted.
func Names() []string {
	names := []string{}
	for name := range mutants() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Describe returns one line on the protection the mutant removes, or "" for
// an unknown name.
func Describe(name string) string {
	return mutants()[name].describe
}

// New returns the reference adapter for cfg with the protection of the
// named mutant removed. An unknown name is an error (ErrUnknown) listing
// the valid names. The caller should call Close when finished.
func New(name string, cfg reference.Config) (*reference.Adapter, error) {
	a, err := build(name, cfg)
	if err != nil {
		return nil, err
	}
	return (*reference.Adapter)(a), nil
}

// build returns the named mutant for cfg: opts apply first (tests send the
// audit elsewhere with them), the mutant's own options last.
func build(name string, cfg pipeline.Config, opts ...pipeline.Option) (*pipeline.Adapter, error) {
	m, err := lookup(name)
	if err != nil {
		return nil, err
	}
	a, err := pipeline.New(cfg, append(opts, m.options(cfg)...)...)
	if err != nil {
		return nil, fmt.Errorf("mutant %s: %w", name, err)
	}
	return a, nil
}

// ErrUnknown is returned (wrapped, with the valid names) for a name that is
// not a mutant's.
var ErrUnknown = errors.New("unknown mutant")

// lookup returns the named mutant.
func lookup(name string) (mutant, error) {
	m, ok := mutants()[name]
	if !ok {
		return m, fmt.Errorf("%w %q: want one of %s", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	return m, nil
}

// fetcher returns the option of a fetcher built like the reference's, then
// changed by overrides.
func fetcher(cfg pipeline.Config, overrides ...gate.FetchOption) []pipeline.Option {
	opts := append(pipeline.FetcherOptions(cfg), overrides...)
	return []pipeline.Option{pipeline.WithFetcher(gate.NewFetcher(opts...))}
}
