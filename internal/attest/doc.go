// Package attest turns a toolcert run into a signed attestation and reads
// it back: an in-toto Statement v1 whose predicate is a test result
// (https://in-toto.io/attestation/test-result/v0.1), its subject the
// adapter that ran, wrapped in a DSSE envelope signed with ed25519.
//
// Predicate builds the test result from a run's result and its inputs
// (Config), SubjectOf names the adapter, Sign writes the envelope and Open
// checks it with a public key; Policy says what a verifier requires, and
// Matrix lays many attestations out as adapters by upstream versions.
// docs/attestations.md describes the format for those who read it with
// other tools.
package attest
