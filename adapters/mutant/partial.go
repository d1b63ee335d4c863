package mutant

import "bytes"

// closeOpen is the repair the partial-stream-acted-on mutant applies to an
// invocation body that ended early: it closes an open string and every
// open object and array, drops a dangling comma and gives a dangling name
// the value null.
func closeOpen(raw []byte) []byte {
	var stack []byte
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '{':
			stack = append(stack, '}')
		case c == '[':
			stack = append(stack, ']')
		case (c == '}' || c == ']') && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	out := bytes.Clone(raw)
	if inString {
		if escaped {
			out = out[:len(out)-1]
		}
		out = append(out, '"')
	}
	out = bytes.TrimRight(out, " \t\r\n")
	switch {
	case bytes.HasSuffix(out, []byte(",")):
		out = out[:len(out)-1]
	case bytes.HasSuffix(out, []byte(":")):
		out = append(out, "null"...)
	}
	for i := len(stack) - 1; i >= 0; i-- {
		out = append(out, stack[i])
	}
	return out
}
