// Package record is a recording proxy and a schema inferrer: the first
// step of writing a fixture corpus (docs/fixtures.md) from a real
// upstream.
//
// A connector owner runs a [Recorder] on loopback and points the adapter
// under test, or any client, at it. The Recorder forwards every request to
// the real upstream, hands the upstream's answer back unchanged, and keeps
// each answer it may ([Recorder.Answers]): the body byte for byte, the
// status, and only the response headers a corpus needs. [Recorder.Route]
// names the request template the answers share and [Infer] derives a
// closed Draft 2020-12 schema from their bodies. Everything the answers
// only suggested (an optional member, a format, an enum, which path
// segments are arguments) comes back as an [Inference] for the owner to
// review before the corpus is trusted.
//
// The package never stores a request header, never stores a response
// header outside its allowlist, redacts secret-looking query values, and
// never logs. It does not choose where it listens: the caller binds it,
// and must bind it to loopback.
package record
