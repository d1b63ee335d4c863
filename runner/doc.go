// Package runner orchestrates a toolcert run: it starts the lanes (an
// isolated mock upstream and target per lane), runs the Gherkin features
// through godog with toolcert's steps, and fills the canonical result model
// that every report renders.
package runner
