package steps

import (
	"regexp"
	"strings"
)

// What a target printed as it died, read for the one line a person needs
// first: a Go panic's message and the frame it was raised in, a Go fatal
// error, or a Python traceback's exception and its last frame.

var (
	goPanic     = regexp.MustCompile(`(?m)^(panic: .*|fatal error: .*)$`)
	goFrame     = regexp.MustCompile(`(?m)^goroutine \d+ \[[^\]]*\]:\n(\S.*)\n\t(\S+?)(?: \+0x[0-9a-f]+)?$`)
	pyFrame     = regexp.MustCompile(`(?m)^  File "([^"]+)", line (\d+), in (\S+)$`)
	pyException = regexp.MustCompile(`(?m)^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)\b.*)$`)
)

// crashOf returns the message and frame of the last crash in logs, "" when
// logs hold none it recognizes.
func crashOf(logs string) string {
	if locs := goPanic.FindAllStringIndex(logs, -1); len(locs) > 0 {
		at := locs[len(locs)-1]
		msg := logs[at[0]:at[1]]
		if m := goFrame.FindStringSubmatch(logs[at[1]:]); m != nil {
			msg += " (in " + m[1] + " at " + m[2] + ")"
		}
		return msg
	}
	if i := strings.LastIndex(logs, "Traceback (most recent call last):"); i >= 0 {
		tb := logs[i:]
		frames := pyFrame.FindAllStringSubmatch(tb, -1)
		exc := pyException.FindAllString(tb, -1)
		if len(exc) == 0 {
			return ""
		}
		msg := exc[len(exc)-1]
		if len(frames) > 0 {
			f := frames[len(frames)-1]
			msg += " (in " + f[3] + " at " + f[1] + ":" + f[2] + ")"
		}
		return msg
	}
	return ""
}
