package runconfig

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors a caller can branch on with errors.Is; an *Error wraps
// them.
var (
	// ErrUnknownKey means a mapping holds a key the format does not have.
	ErrUnknownKey = errors.New("unknown key")
	// ErrDuplicateKey means a mapping holds the same key twice.
	ErrDuplicateKey = errors.New("duplicate key")
	// ErrWrongType means a value is not of the type its key takes.
	ErrWrongType = errors.New("wrong type")
)

// Error is a fault in a config file: the file, the line and the key at
// fault, and what is wrong. Use errors.As to read it.
type Error struct {
	// File is the config file's path as the caller gave it.
	File string
	// Line is the 1-based line of the fault; 0 when unknown.
	Line int
	// Key is the dotted path of the key at fault, e.g. "target.command"
	// or "tools.review_status.result"; "" for the file as a whole.
	Key string
	// Err says what is wrong.
	Err error
}

// Error returns "file:line: key: what is wrong".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

// Unwrap returns what is wrong.
func (e *Error) Unwrap() error { return e.Err }

// unknownKey returns the error of a key name that is not among known,
// with the closest known key as a hint.
func unknownKey(name string, known []string) error {
	if s := closest(name, known); s != "" {
		return fmt.Errorf("%w (did you mean %q?)", ErrUnknownKey, s)
	}
	return fmt.Errorf("%w (want one of %s)", ErrUnknownKey, strings.Join(known, ", "))
}

// closest returns the word of words nearest to s by edit distance, or ""
// when none is near enough to be a typo of it.
func closest(s string, words []string) string {
	best, bestDist := "", max(2, len(s)/3)+1
	for _, w := range words {
		if d := distance(strings.ToLower(s), strings.ToLower(w)); d < bestDist {
			best, bestDist = w, d
		}
	}
	return best
}

// distance returns the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
