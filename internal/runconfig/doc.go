// Package runconfig reads a target config file (toolcert.yaml, see
// docs/config.md) and merges it with the flags of toolcert run.
//
// A config file names the target and how to start it, maps the corpus's
// tools onto the target's tools, and may hold any run flag as a key of the
// same name. Load reads it strictly: an unknown key, a value of the wrong
// type, a duplicate key or a second document is an *Error naming the file,
// the line and the key. Merge lays the flags the user set over the file's
// keys; Run.Config turns the result into a runner.Config.
package runconfig
