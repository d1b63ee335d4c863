package targets

import (
	"regexp"
	"strings"
)

// What an adapter printed as it failed, read for the one line a person
// needs first. The patterns are those of the runtimes adapters are written
// in; a line no pattern knows is still found when it reads as an error.
var (
	goPanic     = regexp.MustCompile(`(?m)^(panic: .*|fatal error: .*)$`)
	goFrame     = regexp.MustCompile(`(?m)^goroutine \d+ \[[^\]]*\]:\n(\S.*)\n\t(\S+?)(?: \+0x[0-9a-f]+)?$`)
	pyFrame     = regexp.MustCompile(`(?m)^  File "([^"]+)", line (\d+), in (\S+)$`)
	pyException = regexp.MustCompile(`(?m)^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b.*)$`)
	// thrown is an exception as Node.js, Java and others print it: at the
	// start of a line, a name ending in Error or Exception (or Error
	// alone), a colon and the message.
	thrown = regexp.MustCompile(`(?m)^((?:[\w.$]*\.)?(?:[A-Z][\w$]*)?(?:Error|Exception)(?: \[[\w-]+\])?: \S.*)$`)
	// errorish is a line that reads as an error, whatever printed it.
	errorish = regexp.MustCompile(`(?i)\b(error|errors|fatal|panic|fail|failed|failure|cannot|can't|couldn't|unable|refused|denied|in use|not found|no such|invalid|exception|crash(ed)?)\b`)
)

// maxCauseBytes bounds the line FailureLine returns.
const maxCauseBytes = 240

// FailureLine returns the line of an adapter's output that says why it
// failed: a Go panic's or fatal error's message and the frame it was
// raised in ("panic: boom (in main.main at /src/main.go:12)"), a Python
// exception and its last frame, an exception as Node.js or Java print it
// ("Error: listen EADDRINUSE: address already in use :::3000"), or else
// the last line that reads as an error ("listen tcp 127.0.0.1:8080: bind:
// address already in use"); "" when no line does. The line is the
// adapter's text, clipped: quote it as such.
func FailureLine(output string) string {
	if c := crash(output); c != "" {
		return clipLine(c)
	}
	if m := thrown.FindAllString(output, -1); len(m) > 0 {
		return clipLine(m[0])
	}
	lines := strings.Split(output, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		line := strings.TrimSpace(lines[i])
		if line != "" && !indented(lines[i]) && errorish.MatchString(line) {
			return clipLine(line)
		}
	}
	return ""
}

// CrashLine returns the message and frame of the last Go panic or fatal
// error in output ("panic: boom (in main.main at /src/main.go:12)"), or
// the exception and last frame of its last Python traceback, clipped; ""
// when output holds no crash (FailureLine also takes lines that only read
// as errors).
func CrashLine(output string) string {
	if c := crash(output); c != "" {
		return clipLine(c)
	}
	return ""
}

// crash returns the message and frame of the last Go panic or fatal
// error in output, or of its last Python traceback; "" when it holds none.
func crash(output string) string {
	if locs := goPanic.FindAllStringIndex(output, -1); len(locs) > 0 {
		at := locs[len(locs)-1]
		msg := output[at[0]:at[1]]
		if m := goFrame.FindStringSubmatch(output[at[1]:]); m != nil {
			msg += " (in " + m[1] + " at " + m[2] + ")"
		}
		return msg
	}
	i := strings.LastIndex(output, "Traceback (most recent call last):")
	if i < 0 {
		return ""
	}
	tb := output[i:]
	exc := pyException.FindAllString(tb, -1)
	if len(exc) == 0 {
		return ""
	}
	msg := exc[len(exc)-1]
	if frames := pyFrame.FindAllStringSubmatch(tb, -1); len(frames) > 0 {
		f := frames[len(frames)-1]
		msg += " (in " + f[3] + " at " + f[1] + ":" + f[2] + ")"
	}
	return msg
}

// lastLine returns the last line of output that is not blank, clipped.
func lastLine(output string) string {
	lines := strings.Split(output, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if line := strings.TrimSpace(lines[i]); line != "" {
			return clipLine(line)
		}
	}
	return ""
}

// indented reports whether line starts with a space or a tab: a frame of a
// stack trace, not a message.
func indented(line string) bool {
	return strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")
}

// clipLine trims line and cuts it to maxCauseBytes, at a rune boundary.
func clipLine(line string) string {
	line = strings.TrimSpace(line)
	if len(line) <= maxCauseBytes {
		return line
	}
	cut := maxCauseBytes
	for cut > 0 && !runeStart(line[cut]) {
		cut--
	}
	return line[:cut] + "…"
}

// runeStart reports whether b starts a UTF-8 sequence.
func runeStart(b byte) bool { return b&0xC0 != 0x80 }

// outputCause phrases what an adapter's output says of its failure, for
// the first line of an error: "; it printed: " and its FailureLine; ""
// when no line reads as an error.
func outputCause(output string) string {
	if c := FailureLine(output); c != "" {
		return "; it printed: " + c
	}
	return ""
}
