package reports

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// What a failed case or scenario showed, for the person who reads the
// failure: what the agent saw, the upstream requests, what the target
// printed meanwhile. results.json keeps each as the harness kept it; the
// other formats show them clipped, the agent's output escaped.

// sawLines returns the parts of saw, one a line, each "where: " and its
// text quoted as a Go string (every control and invalid byte escaped),
// clipped at maxBytes of text, at most maxParts of them. The headers of an
// HTTP answer and an MCP result's _meta are left out (the first counted in
// a last line with the parts past maxParts): the status line and the body,
// the content and the structured content say what the agent saw.
func sawLines(saw []Part, maxBytes, maxParts int) []string {
	var out []string
	headers, more := 0, 0
	ordered := slices.Clone(saw) // the body before the status line that announced it
	slices.SortStableFunc(ordered, func(a, b Part) int { return cmp.Compare(statusLineLast(a), statusLineLast(b)) })
	for _, p := range ordered {
		if strings.HasPrefix(p.Where, "header ") {
			headers++
			continue
		}
		if p.Text == "" && p.Clipped == 0 || strings.HasSuffix(p.Where, "_meta") {
			continue // an empty part of an answer that never came; the server's own metadata
		}
		if len(out) == maxParts {
			more++
			continue
		}
		text, more := p.Text, p.Clipped
		if len(text) > maxBytes {
			cut := maxBytes
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text, more = text[:cut], more+len(text)-cut
		}
		line := p.Where + ": " + strconv.Quote(text)
		if more > 0 {
			line += fmt.Sprintf(" … (%d more bytes)", more)
		}
		out = append(out, line)
	}
	switch {
	case headers > 0 && more > 0:
		out = append(out, fmt.Sprintf("and %d more parts and %d headers (results.json lists them)", more, headers))
	case headers > 0:
		out = append(out, fmt.Sprintf("and %d headers (results.json lists them)", headers))
	case more > 0:
		out = append(out, fmt.Sprintf("and %d more parts (results.json lists them)", more))
	}
	return out
}

// statusLineLast orders a status line after every other part.
func statusLineLast(p Part) int {
	if p.Where == "status line" {
		return 1
	}
	return 0
}

// requestsLine says the upstream requests of reqs, at most maxListed:
// "GET /reviews/CR-1042 → 503 at 1ms; GET /api → 501 (nobody programmed
// it) at 2ms".
func requestsLine(reqs []Request, maxListed int) string {
	if len(reqs) == 0 {
		return "none"
	}
	parts := make([]string, 0, min(len(reqs), maxListed))
	for i, r := range reqs {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("… and %d more", len(reqs)-i))
			break
		}
		status := strconv.Itoa(r.Status)
		switch {
		case r.Status == 0:
			status = "no answer (the connection was cut)"
		case r.Route == "":
			status += " (nobody programmed it)"
		case strings.HasPrefix(r.Route, "side "):
			status += " (a side route)"
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s at %dms", r.Method, escaped(r.Path), status, r.AfterMS))
	}
	return strings.Join(parts, "; ")
}

// outputTail returns the end of a target's output: its last maxLines
// lines, at most maxBytes, preceded by "…" when it cut.
func outputTail(out string, maxLines, maxBytes int) string {
	out = strings.TrimRight(out, "\n")
	cut := false
	if lines := strings.Split(out, "\n"); len(lines) > maxLines {
		out, cut = strings.Join(lines[len(lines)-maxLines:], "\n"), true
	}
	if len(out) > maxBytes {
		start := len(out) - maxBytes
		for start < len(out) && !utf8.RuneStart(out[start]) {
			start++
		}
		out, cut = out[start:], true
	}
	if cut {
		return "…\n" + out
	}
	return out
}

// escaped writes s as the inside of a quoted Go string: every control and
// invalid byte escaped.
func escaped(s string) string {
	q := strconv.Quote(s)
	return q[1 : len(q)-1]
}

// detailLines are the lines a failed case or scenario adds under its
// evidence: what the agent saw (maxParts parts, each clipped at sawBytes), the
// upstream requests (at most maxRequests), and the end of what the target
// printed (outLines lines, outBytes bytes), each only when there is one.
func detailLines(saw []Part, reqs []Request, output string, sawBytes, maxParts, maxRequests, outLines, outBytes int) []string {
	var out []string
	switch lines := sawLines(saw, sawBytes, maxParts); {
	case len(lines) > 0:
		out = append(out, "the agent saw: "+strings.Join(lines, "; "))
	case saw != nil:
		out = append(out, "the agent saw nothing")
	}
	if len(reqs) > 0 {
		out = append(out, "upstream requests: "+requestsLine(reqs, maxRequests))
	}
	if strings.TrimSpace(output) != "" {
		out = append(out, "the target printed meanwhile:\n"+outputTail(output, outLines, outBytes))
	}
	return out
}
