// Package corpus loads toolcert's fixture corpus and renders its
// placeholders.
//
// A fixture is stored as raw bytes, so duplicate members, broken encodings
// and truncated documents survive exactly. The only bytes rendering touches
// are placeholders of the form {{...}}:
//
//	{{canary:NAME}}   a canary unique to this run and scenario; the same NAME
//	                  in one scenario gives the same canary
//	{{now}}           the scenario's clock, RFC 3339, UTC, whole seconds
//	{{now-90s}}       the clock moved by a Go duration (also {{now+10m}})
//	{{stale}}         older than the target's freshness window by one minute
//	{{future}}        later than the target's allowed clock skew by one minute
package corpus
