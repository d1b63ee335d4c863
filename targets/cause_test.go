package targets

import (
	"strings"
	"testing"
)

func TestFailureLine(t *testing.T) {
	tests := []struct {
		name, reason, output, want string
	}{
		{"go panic", "the message and the frame it was raised in",
			"starting\npanic: runtime error: index out of range [3] with length 0\n\ngoroutine 1 [running]:\nmain.parse(...)\n\t/src/main.go:12 +0x1d\nmain.main()\n\t/src/main.go:30 +0x45\nexit status 2\n",
			"panic: runtime error: index out of range [3] with length 0 (in main.parse(...) at /src/main.go:12)"},
		{"go fatal error", "a fatal error is a crash too",
			"fatal error: concurrent map writes\n\ngoroutine 7 [running]:\nmain.store()\n\t/src/store.go:8 +0x2a\n",
			"fatal error: concurrent map writes (in main.store() at /src/store.go:8)"},
		{"python traceback", "the exception and the last frame",
			"Traceback (most recent call last):\n  File \"/app/server.py\", line 40, in <module>\n    main()\n  File \"/app/server.py\", line 12, in main\n    sock.bind(addr)\nOSError: [Errno 98] Address already in use\n",
			"OSError: [Errno 98] Address already in use (in main at /app/server.py:12)"},
		{"node", "the thrown error, not the stack or the event's noise",
			"node:events:497\n      throw er; // Unhandled 'error' event\n      ^\n\nError: listen EADDRINUSE: address already in use 127.0.0.1:8080\n    at Server.setupListenHandle [as _listen2] (node:net:1817:16)\nEmitted 'error' event on Server instance at:\n    at emitErrorNT (node:net:1796:8)\n",
			"Error: listen EADDRINUSE: address already in use 127.0.0.1:8080"},
		{"java", "a qualified exception name",
			"Starting server\njava.net.BindException: Address already in use\n\tat java.base/sun.nio.ch.Net.bind0(Native Method)\n",
			"java.net.BindException: Address already in use"},
		{"go log.Fatal", "the last line that reads as an error",
			"2026/01/02 10:00:00 config: using defaults\n2026/01/02 10:00:00 listen tcp 127.0.0.1:8080: bind: address already in use\n",
			"2026/01/02 10:00:00 listen tcp 127.0.0.1:8080: bind: address already in use"},
		{"nothing wrong said", "no line reads as an error",
			"starting\nlistening on 127.0.0.1:8080\n", ""},
		{"nothing", "no output", "", ""},
		{"a long line", "clipped, at a rune boundary",
			"error: " + strings.Repeat("é", 200), "error: " + strings.Repeat("é", (maxCauseBytes-len("error: "))/2) + "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FailureLine(tt.output); got != tt.want {
				t.Errorf("FailureLine (%s):\n got %q\nwant %q", tt.reason, got, tt.want)
			}
		})
	}
}

// TestCrashLine: the line of a crash names the panic and its frame, for a Go panic, a Go fatal error and a Python traceback, and
// nothing for output that holds no crash.
func TestCrashLine(t *testing.T) {
	for _, tc := range []struct{ name, logs, want string }{
		{"go panic", "starting\npanic: decode answer: nil pointer\n\ngoroutine 7 [running]:\nmain.decode(0x1)\n\t/src/main.go:42 +0x2a\ncreated by main.serve\n",
			"panic: decode answer: nil pointer (in main.decode(0x1) at /src/main.go:42)"},
		{"go fatal error", "fatal error: concurrent map writes\n\ngoroutine 3 [running]:\nmain.put()\n\t/src/m.go:9 +0x10\n",
			"fatal error: concurrent map writes (in main.put() at /src/m.go:9)"},
		{"python", "Traceback (most recent call last):\n  File \"/srv/server.py\", line 10, in main\n    serve()\n  File \"/srv/server.py\", line 55, in decode\n    return body[\"state\"]\nTypeError: 'NoneType' object is not subscriptable\n",
			"TypeError: 'NoneType' object is not subscriptable (in decode at /srv/server.py:55)"},
		{"no crash", "listening on 127.0.0.1:9000\n", ""},
	} {
		if got := CrashLine(tc.logs); got != tc.want {
			t.Errorf("%s: CrashLine = %q, want %q", tc.name, got, tc.want)
		}
	}
}
