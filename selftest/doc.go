// Package selftest proves toolcert's harness as a whole, so that its
// verdicts can be trusted: every mutant adapter (the reference with exactly
// one protection removed) is caught at the step named for it, every
// assertion step of the vocabulary is the failing step of some mutant, the
// reference adapter passes every built-in scenario and generated case
// without a leak, and the reference's pinned schemas are the built-in
// corpus's. Its benchmarks (docs/performance.md) measure the built-in run
// (BenchmarkBuiltinRun), the generated variants and their ratio to a bare
// round trip (BenchmarkVariants, BenchmarkFloor), lanes (BenchmarkVariantsLanes),
// corpora of 3,000 and 30,000 cases (BenchmarkScale) and the audit wait
// (BenchmarkAuditWait).
//
// The package holds tests only; run them with go test ./selftest.
package selftest
