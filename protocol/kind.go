package protocol

// Kind says what a hostile upstream answer is to the agent, whatever the
// adapter's style (docs/protocol.md, "Levels"): the same meaning as the
// honest answer, an answer that must be refused, or one that an adapter
// may refuse or read past. Protocol v1's own rules (the strict level) are
// the decision table's verdicts; the safe level judges a generated answer
// by its kind and by what the target showed for the honest answer.
type Kind string

// The kinds of a generated answer.
const (
	// KindEquivalent is valid JSON with the honest answer's meaning
	// (escaped names and values, member order, white space, a
	// Content-Type parameter the RFCs allow): at every level it must be
	// accepted and show what the honest answer shows.
	KindEquivalent Kind = "equivalent"
	// KindMustRefuse is an answer about another object or time, an
	// ambiguous one, one past a declared limit, or one that is not the
	// object at all (an error status, null, an array where the object
	// should be): at every level it must be refused.
	KindMustRefuse Kind = "must_refuse"
	// KindIgnorable is every other generated answer (an unknown member, a
	// duplicate with equal values, a type swap, a broken pattern, a
	// Content-Type or trailing data on a valid body): the strict level
	// holds it to its verdict; the safe level passes a refusal, or an
	// acceptance that shows exactly what the honest answer shows.
	KindIgnorable Kind = "ignorable"
)

// Kinds returns every kind, in the order docs/protocol.md lists them.
func Kinds() []Kind { return []Kind{KindEquivalent, KindMustRefuse, KindIgnorable} }

// KindOf returns the kind of a generated answer of class c, given the
// facts the decision table's kind column names: whether the answer's
// change is the exception the class lists (Class.OtherwiseWhen), and
// whether it changes, removes or replaces the value of a member the tool
// binds to the request or checks for freshness. The second makes an
// ignorable change must-refuse: such an answer is about another object or
// time, or cannot be told apart from one.
func (c Class) KindOf(exception, touchesBound bool) Kind {
	k := c.Kind
	if exception && c.Otherwise != "" {
		k = c.Otherwise
	}
	if k == KindIgnorable && touchesBound {
		return KindMustRefuse
	}
	return k
}
