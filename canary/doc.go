// Package canary hands out per-run canaries and scans agent-visible output
// for them.
//
// A canary is a unique token, derived from the run's seed, that toolcert
// plants in every part of an upstream response the agent must never see: a
// rejected body, a field the adapter must not project, a header, a reason
// phrase. After the adapter under test has answered, [Scan] looks for every
// canary in every part of the agent-visible output, raw and through the
// decodings an adapter might apply on the way ([Raw] and the encodings
// listed after it, alone or chained by two), and returns one [Leak] per
// canary and part as evidence.
//
// A [Set] belongs to one scenario; the run seed and the scenario id make its
// canaries reproducible for that run and unguessable for an adapter.
package canary
