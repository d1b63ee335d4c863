package record

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Inference is one thing a schema or a route says that the answers only
// suggested: the owner must review each before trusting the corpus.
// Pointer is a JSON pointer into the schema document ("" for its root,
// "/properties/state") or "/request/path" for the route; What says what
// was inferred and from what.
type Inference struct {
	Pointer string
	What    string
}

// sortInferences sorts infs by pointer, then text, and drops repeats.
func sortInferences(infs []Inference) []Inference {
	slices.SortStableFunc(infs, func(a, b Inference) int {
		return cmp.Or(cmp.Compare(a.Pointer, b.Pointer), cmp.Compare(a.What, b.What))
	})
	return slices.Compact(infs)
}

// listLimit is how many values an Inference lists.
const listLimit = 8

// listValues lists values for an Inference, comma separated, each quoted
// only when it would be ambiguous bare; past listLimit it counts the
// rest.
func listValues(values []string) string {
	shown := make([]string, 0, min(len(values), listLimit))
	for _, v := range values[:min(len(values), listLimit)] {
		shown = append(shown, quoteIfNeeded(v))
	}
	out := strings.Join(shown, ", ")
	if len(values) > listLimit {
		out += fmt.Sprintf(" and %d more", len(values)-listLimit)
	}
	return out
}

// quoteIfNeeded returns v as it is when it is plain printable text
// without separators, else quoted as Go quotes it.
func quoteIfNeeded(v string) string {
	if v == "" || strings.ContainsAny(v, ",;\"' \t\\") || !strconv.CanBackquote(v) || len(v) > 80 {
		return strconv.Quote(truncateRunes(v, 80))
	}
	return v
}

// truncateRunes cuts s after n runes, marking the cut with "...".
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}
