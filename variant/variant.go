// Package variant derives hostile upstream answers from a corpus's
// accepted examples, deterministically from a seed.
//
// Every accepted example of every tool, in each upstream version it
// belongs to, is run through a fixed list of operators (see [Operators]):
// each operator makes zero or more [Variant]s, one hostile answer each, with
// the outcome a correct adapter must reach ([Expect]): the failure code, the
// audit gate and reason of docs/protocol.md, or, for the few variants a
// correct adapter accepts, the exact agent data.
//
// Bodies are templates: placeholders such as {{now-30s}} stay as they are
// and operators add {{canary:NAME}} placeholders where they plant text, so
// that the harness can render them (corpus.Render) with its own canaries.
// Every variant a correct adapter rejects carries at least one canary,
// except null_for_object and null_for_array at the root, whose body is the
// literal null; when an operator's own change plants none, the generator
// appends one to a "carrier" string that does not change the outcome (see
// carrier.go).
//
// Expectations are declared by the operators from the version's schema
// (type, enum, const, pattern, format date-time, date and uri, lengths,
// bounds, required, closedness, allOf merged, the items of a list, an
// anyOf or oneOf of one schema and null), its binding and freshness
// pointers, and docs/protocol.md; a value whose fate the generator cannot
// read from the schema ($ref, another anyOf or oneOf, another format) is
// skipped, never guessed. The package's tests check every declaration
// against corpus.Evaluate.
//
// IDs hold no counters: an ID names the operator, the pointer and a short
// tag, so adding an operator renames nothing. Seeded choices (truncation
// offsets) depend on the seed, the tool, the example, the version and the
// operator only. Operators that change the status line or the
// Content-Type run once per tool, on its first example.
//
// JSON structure: the generator parses an example into an ordered tree
// (members keep their order, scalars keep their exact text) and writes
// every variant on one line, with ": " after names and ", " between
// members; variants that keep the example's body unchanged (accepted,
// content_type#charset, and the status operators when the example holds a
// canary) serve its stored bytes. Encoding operators (BOM, invalid UTF-8,
// truncation, ...) work on the written bytes.
package variant

import (
	"encoding/json"
	"errors"

	"github.com/toolcert/toolcert/protocol"
)

// Variant is one hostile (or, for the baseline and a few others, accepted)
// upstream answer derived from an accepted example.
type Variant struct {
	// ID is stable, readable and unique:
	// "<tool>/<example>/<operator>[<pointer>][#tag]", such as
	// "review_status/approved/type_swap/decision#number". An example that
	// belongs to more than one upstream version is written
	// "<example>@<version>".
	ID string
	// Tool, Example, Operator and Version say where the variant comes from.
	Tool, Example, Operator, Version string
	// Field is the JSON pointer of the value the operator touched ("" for
	// whole-document operators); for key_value tools it is the key.
	Field string
	// Note says, in one line for a person, what was done.
	Note string
	// Status is the HTTP status the mock answers with.
	Status int
	// ContentType is the Content-Type header the mock sends ("" sends
	// none).
	ContentType string
	// Body is a template: render it with corpus.Render before serving.
	Body []byte
	// Arguments are the agent's arguments, from the example.
	Arguments map[string]string
	// Expect is what a correct adapter answers and records: the strict
	// level's verdict (protocol v1).
	Expect Expect
	// Kind is what the answer is to the agent whatever the adapter's
	// style, which the safe level judges it by (protocol.Kind).
	Kind protocol.Kind
	// Mark is the JSON pointer (the key, for a key_value tool) of the
	// value the generator appended its mark to: the canary named "mark"
	// it plants in a variant whose own change plants none. "" when the
	// variant holds no mark. The mark of an ignorable variant sits where
	// a correct adapter's agent never sees it; that of a must-refuse one,
	// where a wrong acceptance shows it.
	Mark string
}

// MarkName is the name of the canary the generator plants as the mark:
// {{canary:mark}}.
const MarkName = "mark"

// Expect is the outcome a correct adapter reaches for a variant.
type Expect struct {
	// Outcome is protocol.OutcomeSuccess or protocol.OutcomeFailure.
	Outcome string
	// Code is the failure's error code ("" for success).
	Code protocol.Code
	// Retryable is the failure's retryable flag.
	Retryable bool
	// Gate and Reason are the audit gate and reason (docs/protocol.md);
	// "none" and "ok" for success.
	Gate, Reason string
	// Data is, for success, the exact agent data; it may hold the
	// example's placeholders, to be rendered like the body.
	Data json.RawMessage
	// Alternatives are the other failures the decision table of
	// docs/protocol.md allows for the variant's class (protocol.Class's
	// Also): where the protocol leaves the gate or reason to the adapter,
	// reaching one of them passes too.
	Alternatives []Expect
}

// Allowed returns e (without its alternatives) followed by each of its
// alternatives: every outcome a correct adapter may reach.
func (e Expect) Allowed() []Expect {
	first := e
	first.Alternatives = nil
	return append([]Expect{first}, e.Alternatives...)
}

// Options select and parameterise the variants [Generate] makes. The zero
// value generates everything for the protocol's default limits with seed 0.
type Options struct {
	// Seed drives the seeded choices (truncation offsets); the same
	// Options always give the same variants.
	Seed uint64
	// MaxBytes and MaxDepth are the target's limits (0: 65536 and 32, the
	// protocol's defaults); the byte-limit and depth operators go one
	// past them.
	MaxBytes int64
	MaxDepth int
	// Tools and Operators restrict the generation (nil: all).
	Tools     []string
	Operators []string
}

// ErrUnknownOperator is returned, wrapped, when Options name an operator
// that [Operators] does not list.
var ErrUnknownOperator = errors.New("unknown operator")

// ErrUnknownTool is returned, wrapped, when Options name a tool the corpus
// does not hold.
var ErrUnknownTool = errors.New("unknown tool")

// ErrNotFound is returned, wrapped, by [Find] when no variant has the ID.
var ErrNotFound = errors.New("no such variant")

// canaryOpen starts every canary placeholder.
const canaryOpen = "{{canary:"

// withDefaults fills the zero limits.
func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = protocol.DefaultMaxBytes
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = protocol.DefaultMaxDepth
	}
	return o
}
