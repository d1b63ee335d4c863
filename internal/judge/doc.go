// Package judge is the harness's own reading of what an upstream sends: a
// strict JSON parser, the Content-Type check, the key=value text format,
// pinned JSON Schemas and their closedness, RFC 6901 pointers and RFC 3339
// timestamps, each rejecting with a [Rejection] that names the gate and the
// reason of docs/protocol.md.
//
// The rule: this package is the judge's own reading and shares no code
// with gate, the library adapters (the reference adapter included) are
// built from. A bug in gate must not also be a bug of the harness that
// judges gate's users, so judge imports neither gate nor anything gate
// wrote; it takes only the protocol's shared facts (gates, reasons, codes,
// default limits) from package protocol. Where both sides must agree, the
// differential test of this package (differential_test.go) runs gate and
// judge over one table of inputs, and over every variant of the built-in
// corpus, and fails on any disagreement.
//
// Agreeing is not the same as being right: where gate's current behaviour
// departs from docs/protocol.md or the RFCs it cites, judge follows gate for
// now and says so in the doc comment of the function concerned ("Mirrors
// gate"), so that both can be changed together.
package judge
