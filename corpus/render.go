package corpus

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Vars are the values placeholders render to within one scenario.
type Vars struct {
	// Now is the scenario's clock; every time placeholder is relative to it.
	Now time.Time
	// Freshness and Skew are the target's declared freshness window and
	// allowed future skew, for {{stale}} and {{future}}.
	Freshness time.Duration
	Skew      time.Duration
	// Canary returns the canary for a placeholder name and records that it
	// was planted in where.
	Canary func(name, where string) string
}

// ErrPlaceholder is returned, wrapped, for an unknown or malformed placeholder.
var ErrPlaceholder = errors.New("bad placeholder")

// Render replaces the placeholders in raw and leaves every other byte as it
// is. origin names the fixture in errors and in where canaries were planted.
func Render(raw []byte, origin string, v Vars) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(raw) + 64) // a placeholder's value is about its own length: one allocation, not a doubling per write
	rest := raw
	for {
		i := bytes.Index(rest, []byte("{{"))
		if i < 0 {
			out.Write(rest)
			return out.Bytes(), nil
		}
		j := bytes.Index(rest[i:], []byte("}}"))
		if j < 0 {
			out.Write(rest)
			return out.Bytes(), nil
		}
		out.Write(rest[:i])
		name := string(rest[i+2 : i+j])
		val, err := v.value(name, origin)
		if err != nil {
			return nil, fmt.Errorf("render %s: %w", origin, err)
		}
		out.WriteString(val)
		rest = rest[i+j+2:]
	}
}

// Expand renders placeholders in a string, as Render does for bytes.
func Expand(s, origin string, v Vars) (string, error) {
	b, err := Render([]byte(s), origin, v)
	return string(b), err
}

func (v Vars) value(name, origin string) (string, error) {
	switch {
	case strings.HasPrefix(name, "canary:"):
		id := strings.TrimPrefix(name, "canary:")
		if id == "" || v.Canary == nil {
			return "", fmt.Errorf("%w {{%s}}", ErrPlaceholder, name)
		}
		return v.Canary(id, fmt.Sprintf("%s placeholder %s", origin, id)), nil
	case name == "now":
		return stamp(v.Now), nil
	case name == "stale":
		return stamp(v.Now.Add(-v.Freshness - time.Minute)), nil
	case name == "future":
		return stamp(v.Now.Add(v.Skew + time.Minute)), nil
	case strings.HasPrefix(name, "now+") || strings.HasPrefix(name, "now-"):
		d, err := time.ParseDuration(name[3:])
		if err != nil {
			return "", fmt.Errorf("%w {{%s}}: %v", ErrPlaceholder, name, err)
		}
		return stamp(v.Now.Add(d)), nil
	}
	return "", fmt.Errorf("%w {{%s}}", ErrPlaceholder, name)
}

func stamp(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }
