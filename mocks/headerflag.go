package mocks

import (
	"flag"
	"fmt"
	"strings"
)

// HeaderFlag collects header lines given as repeated "Name: value" flag
// values, in order; it is a flag.Value.
type HeaderFlag []HeaderField

var _ flag.Value = (*HeaderFlag)(nil)

// String returns the lines collected so far.
func (h *HeaderFlag) String() string { return fmt.Sprint(*h) }

// Set adds the line v, "Name: value" (blanks around both trimmed); a line
// without a colon or with an empty name is an error.
func (h *HeaderFlag) Set(v string) error {
	name, value, ok := strings.Cut(v, ":")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("want K:V, got %q", v)
	}
	*h = append(*h, HeaderField{Name: strings.TrimSpace(name), Value: strings.TrimSpace(value)})
	return nil
}
