// Package pipeline is the implementation of the reference adapter: the
// decision of every agent call (A1-A4), the gates of the read pipeline and
// the call-side tools of docs/protocol.md, with each stage a mutant may
// replace exposed as an [Option].
//
// With no options, [New] builds the safe reference; that is all package
// adapters/reference, its public front, ever builds. Package
// adapters/mutant builds each mutant from this package with exactly one
// stage replaced. Being internal to adapters/, the options are reachable
// from those two packages only.
package pipeline
