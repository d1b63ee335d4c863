package record

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolcert/toolcert/protocol"
)

// InferOptions tunes [Infer].
type InferOptions struct {
	// Enum turns a string member that took between 1 and 8 distinct
	// values, each seen in at least 2 answers, into an "enum" of those
	// values in first-seen order. Without it such a member only gets an
	// Inference saying it could be one. A string with a format never
	// becomes an enum.
	Enum bool
}

// Infer infers a closed Draft 2020-12 schema from bodies, each the raw
// bytes of one 2xx answer, and returns it with an [Inference] for each
// thing the bodies only suggested, sorted by pointer. The schema accepts
// every body; it refuses members, types and (with opts.Enum) values the
// bodies never had. A body that is not strict JSON (judge.ParseJSON with
// the protocol's default limits) is an error naming its index and
// wrapping the *judge.Rejection; no bodies at all is an error too.
func Infer(bodies [][]byte, opts InferOptions) (schema json.RawMessage, inferences []Inference, err error) {
	if len(bodies) == 0 {
		return nil, nil, errors.New("infer schema: no bodies")
	}
	root := &shape{}
	for i, body := range bodies {
		doc, err := readDocument(body)
		if err != nil {
			return nil, nil, fmt.Errorf("infer schema: body %d: %w", i, err)
		}
		root.observe(doc, i)
	}
	in := &inferrer{opts: opts}
	n := in.schema(root, "", place{noun: "answer"})
	head := node{
		{"$schema", protocol.DraftURI},
		{"title", fmt.Sprintf("inferred from %s", count(len(bodies), "answer"))},
	}
	out, err := append(head, n...).indented()
	if err != nil {
		return nil, nil, fmt.Errorf("infer schema: %w", err)
	}
	return out, sortInferences(in.infs), nil
}

// count returns n and noun, plural when n is not 1.
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
