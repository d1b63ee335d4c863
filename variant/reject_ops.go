package variant

import (
	"fmt"
	"maps"
	"slices"

	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/protocol"
)

// RejectOperator names the corpus's own rejects (cases.json "rejects")
// served as cases: each as stored, with its status, expecting the gate and
// reason it states. It is not applied to accepted examples; such a
// variant's Example is the reject's ID.
const RejectOperator = "reject"

// rejectOperators lists the reject operator; generateTool applies it to
// the rejects, not to the examples.
func rejectOperators() []operator {
	return []operator{{
		name:     RejectOperator,
		describe: "each reject of cases.json as stored, served with its status (200 unless it states one; a status reject without a body file is the tool's error answer for it): refused at the gate and reason it states",
	}}
}

// rejectVariants makes a variant of every reject of cs, in each version it
// lists.
func rejectVariants(t *corpus.Tool, cs *corpus.Cases, c *corpus.Corpus) ([]Variant, error) {
	var out []Variant
	for _, r := range cs.Rejects {
		body, contentType, err := c.RejectBody(t, r)
		if err != nil {
			return nil, err
		}
		for _, version := range r.Versions {
			out = append(out, rejectVariant(t, r, version, body, contentType))
		}
	}
	return out, nil
}

// rejectVariant is reject r in version, expecting what it states, or any
// failure the decision table allows instead of it.
func rejectVariant(t *corpus.Tool, r corpus.Reject, version string, body []byte, contentType string) Variant {
	name := r.ID
	if len(r.Versions) > 1 {
		name += "@" + version
	}
	e := rejected(protocol.Gate(r.Gate), r.Reason)
	e.Alternatives = rejectAlternatives(t.Format, e)
	return Variant{
		ID: t.Name + "/" + name + "/" + RejectOperator, Tool: t.Name, Example: r.ID, Operator: RejectOperator,
		Version: version, Note: "the corpus's reject " + r.ID + ": " + r.Why, Status: r.StatusCode(),
		ContentType: contentType, Body: slices.Clone(body), Arguments: maps.Clone(r.Arguments), Expect: e, Kind: rejectKind(r),
	}
}

// rejectKind is the kind of reject r: the one it states, or else
// must-refuse for a transport or semantic rejection and a duplicate name
// (an error answer; another object or time; an ambiguous answer), and
// ignorable for every other.
func rejectKind(r corpus.Reject) protocol.Kind {
	switch g := protocol.Gate(r.Gate); {
	case r.Kind != "":
		return protocol.Kind(r.Kind)
	case g == protocol.GateTransport, g == protocol.GateSemantic, r.Reason == protocol.ReasonDuplicateName:
		return protocol.KindMustRefuse
	}
	return protocol.KindIgnorable
}

// rejectAlternatives returns what the decision table allows instead of
// e: the Also verdicts of every class of format whose verdicts hold e's
// gate and reason.
func rejectAlternatives(format string, e Expect) []Expect {
	var out []Expect
	for _, class := range protocol.DecisionTable() {
		if class.Format != "" && class.Format != format || !slices.ContainsFunc(class.Verdicts, func(v protocol.Verdict) bool {
			return string(v.Gate) == e.Gate && v.Reason == e.Reason
		}) {
			continue
		}
		for _, also := range class.Also {
			alt := rejected(also.Gate, also.Reason)
			if (alt.Gate != e.Gate || alt.Reason != e.Reason) && !slices.ContainsFunc(out, func(o Expect) bool { return o.Gate == alt.Gate && o.Reason == alt.Reason }) {
				out = append(out, alt)
			}
		}
	}
	return out
}

// newAnswers returns the variants of vs whose answer (status, Content-Type
// and body) none of have serves already: a reject the generator also
// makes runs once, under the generator's name.
func newAnswers(have, vs []Variant) []Variant {
	seen := make(map[string]bool, len(have))
	key := func(v Variant) string { return fmt.Sprintf("%d\x00%s\x00%s", v.Status, v.ContentType, v.Body) }
	for _, v := range have {
		seen[key(v)] = true
	}
	var out []Variant
	for _, v := range vs {
		if !seen[key(v)] {
			seen[key(v)] = true
			out = append(out, v)
		}
	}
	return out
}
