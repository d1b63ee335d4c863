package steps

import "testing"

// TestCrashOf: the first line of a crash's evidence names the panic and
// its frame, for a Go panic, a Go fatal error and a Python traceback, and
// nothing for output that holds no crash.
func TestCrashOf(t *testing.T) {
	for _, tc := range []struct{ name, logs, want string }{
		{"go panic", "starting\npanic: decode answer: nil pointer\n\ngoroutine 7 [running]:\nmain.decode(0x1)\n\t/src/main.go:42 +0x2a\ncreated by main.serve\n",
			"panic: decode answer: nil pointer (in main.decode(0x1) at /src/main.go:42)"},
		{"go fatal error", "fatal error: concurrent map writes\n\ngoroutine 3 [running]:\nmain.put()\n\t/src/m.go:9 +0x10\n",
			"fatal error: concurrent map writes (in main.put() at /src/m.go:9)"},
		{"python", "Traceback (most recent call last):\n  File \"/srv/server.py\", line 10, in main\n    serve()\n  File \"/srv/server.py\", line 55, in decode\n    return body[\"state\"]\nTypeError: 'NoneType' object is not subscriptable\n",
			"TypeError: 'NoneType' object is not subscriptable (in decode at /srv/server.py:55)"},
		{"no crash", "listening on 127.0.0.1:9000\n", ""},
	} {
		if got := crashOf(tc.logs); got != tc.want {
			t.Errorf("%s: crashOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}
