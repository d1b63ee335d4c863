package canary

import "fmt"

var _ fmt.Stringer = Leak{}

// Leak is the evidence that one canary reached the agent: which token, where
// it was planted, which part of the agent-visible output it surfaced in
// (a [Part]'s Where) and in what encoding: "raw", one of [Encodings], or a
// chain of two joined by "+" in the order they were decoded, such as
// "json-escape+base64".
type Leak struct {
	Token    string `json:"canary"`
	Planted  string `json:"planted"`
	Surfaced string `json:"surfaced"`
	Encoding string `json:"encoding"`
}

// String renders the leak as one readable evidence line, such as
// "canary tc… planted in header X-Upstream-Trace surfaced in body as base64".
func (l Leak) String() string {
	planted := l.Planted
	if planted == "" {
		planted = "an unrecorded place"
	}
	return fmt.Sprintf("canary %s planted in %s surfaced in %s as %s", l.Token, planted, l.Surfaced, l.Encoding)
}
