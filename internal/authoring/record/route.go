package record

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
)

// route is a request template: a method and the path's segments, each a
// literal or an argument.
type route struct {
	method   string
	segments []segment
}

// segment is one path segment of a route: an argument when arg is set,
// else the literal text (decoded).
type segment struct {
	literal string
	arg     string
}

var (
	methodPattern  = regexp.MustCompile(`^[!#$%&'*+.^_|~0-9A-Za-z-]+$`)
	argNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// parseRoute reads a "METHOD /path/{name}/..." template.
func parseRoute(s string) (*route, error) {
	method, path, ok := strings.Cut(s, " ")
	if !ok || !methodPattern.MatchString(method) {
		return nil, fmt.Errorf("route %q: want \"METHOD /path\"", s)
	}
	segs, ok := splitPath(path)
	if !ok {
		return nil, fmt.Errorf("route %q: the path must start with / and decode", s)
	}
	rt := &route{method: method}
	seen := map[string]bool{}
	for _, seg := range segs {
		sg, err := templateSegment(seg, seen)
		if err != nil {
			return nil, fmt.Errorf("route %q: %w", s, err)
		}
		rt.segments = append(rt.segments, sg)
	}
	return rt, nil
}

// templateSegment reads one segment of a template: "{name}", a new
// argument, or a literal without braces.
func templateSegment(seg string, seen map[string]bool) (segment, error) {
	name, isArg := strings.CutPrefix(seg, "{")
	if name, ok := strings.CutSuffix(name, "}"); isArg && ok {
		if !argNamePattern.MatchString(name) || seen[name] {
			return segment{}, fmt.Errorf("argument {%s} is not a new identifier", name)
		}
		seen[name] = true
		return segment{arg: name}, nil
	}
	if strings.ContainsAny(seg, "{}") {
		return segment{}, fmt.Errorf("segment %q: an argument must be a whole segment", seg)
	}
	return segment{literal: seg}, nil
}

// splitPath returns the decoded segments of an escaped path, and false
// when it does not start with "/" or a segment does not decode.
func splitPath(escaped string) ([]string, bool) {
	rest, ok := strings.CutPrefix(escaped, "/")
	if !ok {
		return nil, false
	}
	parts := strings.Split(rest, "/")
	for i, p := range parts {
		dec, err := url.PathUnescape(p)
		if err != nil {
			return nil, false
		}
		parts[i] = dec
	}
	return parts, true
}

// match returns the arguments of a request of method on the escaped
// path, and whether it matches rt.
func (rt *route) match(method, escapedPath string) (map[string]string, bool) {
	segs, ok := splitPath(escapedPath)
	if !ok || method != rt.method || len(segs) != len(rt.segments) {
		return nil, false
	}
	args := map[string]string{}
	for i, sg := range rt.segments {
		switch {
		case sg.arg == "" && segs[i] != sg.literal:
			return nil, false
		case sg.arg != "" && segs[i] == "":
			return nil, false
		case sg.arg != "":
			args[sg.arg] = segs[i]
		}
	}
	return args, true
}

// path returns the template's path, literals escaped as path segments.
func (rt *route) path() string {
	var b strings.Builder
	for _, sg := range rt.segments {
		b.WriteByte('/')
		if sg.arg != "" {
			b.WriteString("{" + sg.arg + "}")
		} else {
			b.WriteString(url.PathEscape(sg.literal))
		}
	}
	return b.String()
}
