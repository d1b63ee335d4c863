// Package scaffold writes a new tool's folder of a fixture corpus
// (docs/fixtures.md) from what an import or a recording knows of the
// tool: its upstream route and arguments, the vendor's schema of a
// success, accepted answers, declared error answers, and the members the
// agent keeps. What the source cannot say (which member binds to which
// argument, which timestamp must be fresh, what an inference assumed) is
// written into tool.json's "decide" for the owner, and every problem the
// corpus's lint would find is the writer's bug, not the owner's.
package scaffold

import (
	"encoding/json"

	"github.com/toolcert/toolcert/corpus"
)

// Tool is what an import or a recording knows of one tool.
type Tool struct {
	// Name is the tool's name and its folder's.
	Name string
	// Description says what the tool is for, one line.
	Description string
	// Method and Path are the upstream request; {name} in Path is an
	// argument.
	Method, Path string
	// Arguments are the path and query parameters.
	Arguments []Argument
	// ContentType is the media type of a success ("application/json").
	ContentType string
	// Version names the upstream version; "" is "v1".
	Version string
	// VersionHeader is the response header the upstream names its version
	// in, "" for none.
	VersionHeader string
	// Schema is the vendor's schema of a success: Draft 2020-12, standing
	// alone.
	Schema json.RawMessage
	// Examples are accepted answers; at least one.
	Examples []Example
	// Errors are the error answers the upstream declares.
	Errors []ErrorAnswer
	// Keep are the JSON pointers of the members of a success the agent
	// keeps; a "*" token is every element of an array (see Write).
	Keep []string
	// DataName names the agent's field for a pointer that has no name of
	// its own: the whole answer ("") or a list kept element by element.
	DataName string
	// Bind, when set, is the binding made: a member's pointer and the
	// argument it must equal. The writer then asks no binding decision.
	Bind map[string]string
	// Decide are decisions the source leaves to the owner beyond those the
	// writer finds itself.
	Decide []corpus.Decision
	// Notes are what the source could not carry over, for NOTES.md.
	Notes []Note
	// Source says, in one line, where the tool came from (for NOTES.md).
	Source string
}

// Argument is one argument of the tool: a path or query parameter.
type Argument struct {
	Name string
	// In is "path" or "query".
	In string
	// Required is true for every path parameter.
	Required bool
	// Schema is the parameter's schema as the source gives it (Draft
	// 2020-12); the writer turns it into the schema of a string, since the
	// corpus's arguments are strings.
	Schema json.RawMessage
	// Example is an example value, nil for none.
	Example json.RawMessage
}

// Example is one accepted answer.
type Example struct {
	// ID is the case's id; "" takes one from its position.
	ID string
	// Body is the answer, a JSON document.
	Body []byte
	// Raw keeps Body byte for byte (a recorded answer) instead of
	// rewriting it with canaries in the members the agent does not keep.
	Raw bool
	// Arguments are the arguments the answer was given for; nil takes the
	// tool's example arguments.
	Arguments map[string]string
}

// ErrorAnswer is one error answer the upstream declares.
type ErrorAnswer struct {
	// Status is the HTTP status it comes with: one from 300 to 599.
	Status int
	// Range, when set, is what it answers instead of Status alone: a
	// range ("4XX") or "default" (Status is then an example of it, or 0).
	Range string
	// Schema is its body's schema, nil for none.
	Schema json.RawMessage
	// Body is an example of it, nil for none (the writer then writes an
	// object with a message).
	Body []byte
	// Name says what it is ("basic-error"), "" for nothing.
	Name string
}

// Note is one thing the source could not carry over: where, and what.
type Note struct {
	Pointer, Message string
}
