package openapi

import (
	"errors"
	"fmt"
	"strings"
)

// ErrNotOpenAPI is returned, wrapped, by [Load] for a document that parses
// but is not a Swagger 2.0 or OpenAPI 3.x description.
var ErrNotOpenAPI = errors.New("not an OpenAPI description")

// ErrRemoteRef is the Err of a [RefError] for a $ref to a URL: remote
// documents are never fetched.
var ErrRemoteRef = errors.New("remote $ref refused")

// ErrFileRef is the Err of a [RefError] for a $ref to a file when
// [Options].BaseDir is empty, or to a file outside it.
var ErrFileRef = errors.New("file $ref refused")

// ErrBrokenRef is the Err of a [RefError] for a $ref whose target does not
// exist or cannot be read.
var ErrBrokenRef = errors.New("broken $ref")

// ErrNoOperation is the Err of a [SelectError] when no operation matches.
var ErrNoOperation = errors.New("no such operation")

// ErrAmbiguous is the Err of a [SelectError] when several operations match.
var ErrAmbiguous = errors.New("ambiguous operation")

// RefError is returned, wrapped, by [Description.Operation] for a $ref it
// cannot follow. Err is [ErrRemoteRef], [ErrFileRef] or [ErrBrokenRef]
// (possibly wrapping the cause); callers branch with errors.Is.
type RefError struct {
	Ref     string // the $ref as written
	Pointer string // where it is written, as a [Note] Pointer
	Err     error
}

// Error names the ref and where it is written.
func (e *RefError) Error() string {
	return fmt.Sprintf("$ref %q at %s: %v", e.Ref, e.Pointer, e.Err)
}

// Unwrap returns Err.
func (e *RefError) Unwrap() error { return e.Err }

// SelectError is returned by [Description.Operation] when the selector
// matches no operation (Err is [ErrNoOperation], Candidates the closest
// ones) or several (Err is [ErrAmbiguous], Candidates every match). A
// candidate reads "GET /path (operationId)".
type SelectError struct {
	Selector   Selector
	Candidates []string
	Err        error
}

// Error names the selector and lists the candidates.
func (e *SelectError) Error() string {
	msg := fmt.Sprintf("%v: %s", e.Err, e.Selector)
	if len(e.Candidates) == 0 {
		return msg
	}
	label := "closest"
	if errors.Is(e.Err, ErrAmbiguous) {
		label = "matches"
	}
	return fmt.Sprintf("%s (%s: %s)", msg, label, strings.Join(e.Candidates, ", "))
}

// Unwrap returns Err.
func (e *SelectError) Unwrap() error { return e.Err }
