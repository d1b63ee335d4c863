package judge_test

import (
	"fmt"
	"math"
	"net/http"
	"regexp"
	"time"

	"github.com/toolcert/toolcert/protocol"
)

// contentTypeProbes returns the Content-Type headers of the table (names
// "content_type/...").
func contentTypeProbes() []probe {
	const js, text = "application/json", "text/plain"
	tests := []struct {
		name   string
		values []string // the Content-Type headers, none for nil
		want   string
	}{
		{"none", nil, js}, {"two", []string{js, js}, js}, {"two-differing", []string{js, text}, js},
		{"empty-value", []string{""}, js}, {"plain", []string{js}, js}, {"upper", []string{"Application/JSON"}, js},
		{"upper-want", []string{js}, "APPLICATION/JSON"}, {"upper-all", []string{"APPLICATION/JSON; CHARSET=UTF-8"}, js},
		{"charset", []string{"application/json; charset=utf-8"}, js}, {"charset-tight", []string{"application/json;charset=UTF-8"}, js},
		{"charset-quoted", []string{`application/json; charset="utf-8"`}, js}, {"charset-spaced", []string{"application/json ; charset = utf-8 "}, js},
		{"charset-latin1", []string{"application/json; charset=latin1"}, js}, {"charset-iso", []string{"application/json; charset=iso-8859-1"}, js},
		{"charset-utf8", []string{"application/json; charset=utf8"}, js}, {"charset-utf16", []string{"application/json; charset=utf-16"}, js},
		{"charset-empty-quoted", []string{`application/json; charset=""`}, js}, {"charset-no-value", []string{"application/json; charset="}, js},
		{"charset-no-equals", []string{"application/json; charset"}, js}, {"no-name", []string{"application/json; =utf-8"}, js},
		{"other-param", []string{"application/json; foo=bar"}, js}, {"charset-and-other", []string{"application/json; charset=utf-8; foo=bar"}, js},
		{"trailing-semicolon", []string{"application/json;"}, js}, {"trailing-semicolon-space", []string{"application/json; "}, js},
		{"double-semicolon", []string{"application/json;;"}, js}, {"semicolon-space-semicolon", []string{"application/json; ;"}, js},
		{"missing-semicolon", []string{"application/json charset=utf-8"}, js}, {"list", []string{"application/json, text/plain"}, js},
		{"text-json", []string{"text/json"}, js}, {"problem-json", []string{"application/problem+json"}, js},
		{"suffix", []string{"application/jsonx"}, js}, {"type-only", []string{"application"}, js}, {"subtype-only", []string{"/json"}, js},
		{"slash-only", []string{"application/"}, js}, {"spaces-around", []string{" application/json "}, js},
		{"tab-before", []string{"\tapplication/json"}, js}, {"nbsp-before", []string{"\u00a0application/json"}, js},
		{"nbsp-after", []string{"application/json\u00a0"}, js}, {"crlf-after", []string{"application/json\r\n"}, js},
		{"space-before-slash", []string{"application /json"}, js}, {"space-after-slash", []string{"application/ json"}, js},
		{"repeated-same", []string{"application/json; charset=utf-8; charset=utf-8"}, js},
		{"repeated-other-case", []string{"application/json; charset=utf-8; charset=UTF-8"}, js},
		{"rfc2231-dropped", []string{"application/json; foo*=junk"}, js}, {"rfc2231-orphan-part", []string{"application/json; foo*1=a"}, js},
		{"rfc2231-first-part", []string{"application/json; foo*0=a"}, js}, {"rfc2231-charset", []string{"application/json; charset*=utf-8''utf-8"}, js},
		{"rfc2231-charset-latin1", []string{"application/json; charset*=utf-8''latin1"}, js},
		{"rfc2231-overrides", []string{"application/json; charset=latin1; charset*=utf-8''utf-8"}, js},
		{"rfc2231-continued", []string{"application/json; charset*0=utf; charset*1=-8"}, js},
		{"rfc2231-continued-encoded", []string{"application/json; charset*0*=utf-8''utf%2D; charset*1*=8"}, js},
		{"rfc2231-unknown-charset", []string{"application/json; charset*=iso-8859-1''utf-8"}, js},
		{"rfc2231-bad-percent", []string{"application/json; charset*=utf-8''utf%2"}, js}, {"rfc2231-star-only", []string{"application/json; *=x"}, js},
		{"quoted-unterminated", []string{`application/json; charset="utf-8`}, js}, {"quoted-backslash-dash", []string{`application/json; charset="utf\-8"`}, js},
		{"quoted-escaped-quote", []string{`application/json; charset="utf-8\""`}, js}, {"quoted-newline", []string{"application/json; charset=\"utf\n-8\""}, js},
		{"text-plain", []string{text}, text}, {"text-plain-charset", []string{"text/plain; charset=utf-8"}, text},
		{"text-plain-ascii", []string{"text/plain; charset=us-ascii"}, text}, {"text-html", []string{"text/html"}, text},
		{"json-for-text", []string{js}, text}, {"kelvin-sign", []string{"application/vnd.\u212a+json"}, "application/vnd.k+json"},
		{"non-ascii-type", []string{"applicatión/json"}, js}, {"invalid-utf8", []string{"application/json\xff"}, js},
	}
	probes := make([]probe, 0, len(tests)+1)
	for _, tt := range tests {
		h := http.Header{}
		for _, v := range tt.values {
			h.Add("Content-Type", v)
		}
		probes = append(probes, contentTypeProbe("content_type/"+tt.name, h, tt.want))
	}
	lower := http.Header{"content-type": {js}} // not canonical: Values does not find it
	return append(probes, contentTypeProbe("content_type/non-canonical-key", lower, js))
}

// contentTypeProbe checks h against want.
func contentTypeProbe(name string, h http.Header, want string) probe {
	return probe{name: name, run: func(m *impl) any { return m.verdictOf(nil, m.contentType(h, want)) }}
}

// keyValueProbes returns the key=value texts of the table (names
// "key_value/...").
func keyValueProbes() []probe {
	keys := []keySpec{
		{"host", regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)},
		{"uptime_seconds", regexp.MustCompile(`^[0-9]{1,12}$`)},
	}
	free := []keySpec{{"note", nil}}
	tests := []struct {
		name string
		raw  string
		keys []keySpec
	}{
		{"ok", "host=web-1\nuptime_seconds=42\n", keys}, {"bom", "\ufeffhost=web-1\nuptime_seconds=42\n", keys},
		{"invalid-utf8", "host=web-1\nuptime_seconds=4\xff\n", keys}, {"crlf", "host=web-1\r\nuptime_seconds=42\r\n", keys},
		{"cr-inside", "host=web\r1\nuptime_seconds=42\n", keys}, {"no-final-newline", "host=web-1\nuptime_seconds=42", keys},
		{"blank-line", "host=web-1\n\nuptime_seconds=42\n", keys}, {"blank-line-end", "host=web-1\nuptime_seconds=42\n\n", keys},
		{"extra-line", "host=web-1\nuptime_seconds=42\nload=1\n", keys}, {"missing-line", "host=web-1\n", keys},
		{"reordered", "uptime_seconds=42\nhost=web-1\n", keys}, {"repeated", "host=web-1\nhost=web-1\n", keys},
		{"unknown", "hostname=web-1\nuptime_seconds=42\n", keys}, {"pattern-break", "host=WEB\nuptime_seconds=42\n", keys},
		{"too-many-digits", "host=web-1\nuptime_seconds=1234567890123\n", keys}, {"tab-in-value", "host=web-1\nuptime_seconds=4\t2\n", keys},
		{"equals-in-value", "host=a=b\nuptime_seconds=42\n", keys}, {"space-before-equals", "host =web-1\nuptime_seconds=42\n", keys},
		{"leading-space", " host=web-1\nuptime_seconds=42\n", keys}, {"trailing-space", "host=web-1 \nuptime_seconds=42\n", keys},
		{"no-equals", "host\nuptime_seconds=42\n", keys}, {"empty", "", keys}, {"newline-only", "\n", keys},
		{"banner", "Welcome\nhost=web-1\nuptime_seconds=42\n", keys}, {"upper-key", "HOST=web-1\nuptime_seconds=42\n", keys},
		{"free-ok", "note=anything at all = fine\n", free}, {"free-empty", "note=\n", free}, {"free-tab", "note=a\tb\n", free},
		{"free-del", "note=a\x7fb\n", free}, {"free-c1", "note=a\u0085b\n", free}, {"free-nbsp", "note=a\u00a0b\n", free},
		{"free-nul", "note=a\x00b\n", free}, {"free-line-separator", "note=a\u2028b\n", free},
		{"no-keys-empty", "", nil}, {"no-keys-newline", "\n", nil},
		{"name-with-equals", "a=b=c\n", []keySpec{{"a=b", nil}}}, {"empty-name", "=x\n", []keySpec{{"", nil}}},
	}
	probes := make([]probe, len(tests))
	for i, tt := range tests {
		raw, keys := []byte(tt.raw), tt.keys
		probes[i] = probe{name: "key_value/" + tt.name, run: func(m *impl) any { return m.verdictOf(m.keyValues(raw, keys)) }}
	}
	return probes
}

// pointerResult is what an implementation makes of one JSON pointer.
type pointerResult struct {
	Valid  bool
	Tokens []string // of a valid pointer only
	Found  bool
	Value  any
}

// pointerProbes returns the pointers of the table (names "pointer/...",
// "escape/..." and "index/...").
func pointerProbes() []probe {
	doc := `{"a":{"b":[10,{"c/d":1,"e~f":2,"":3," ":4}]},"m~n":5,"0":6,"~1":7,"arr":[0,1,2,3,4,5,6,7,8,9,10]}`
	var probes []probe
	for _, ptr := range []string{
		"", "/", "/a", "/a/b", "/a/b/0", "/a/b/1/c~1d", "/a/b/1/e~0f", "/a/b/1/", "/a/b/1/ ", "/m~0n", "/0", "/~01",
		"/arr/10", "/arr/11", "/arr/01", "/arr/00", "/arr/-", "/arr/-1", "/arr/+1", "/arr/1e1", "/arr/ 1", "/arr/1.0",
		"/arr/99999999999999999999999", "/a/b/0/x", "/a/b/1/c/d", "a", "~", "/~", "/~2", "/a~", "#/a", "//", "/a//", "/~1",
		"/\u00e9", "/arr/\u0661",
	} {
		probes = append(probes, lookupProbe("pointer/"+ptr, doc, ptr))
	}
	probes = append(probes,
		lookupProbe("pointer/scalar-doc", `"text"`, "/0"), lookupProbe("pointer/null-doc", `null`, "/a"),
		lookupProbe("pointer/scalar-doc-root", `42`, ""),
		probe{name: "pointer/foreign-map", run: func(m *impl) any { return foundOnly(m.lookup(map[string]string{"a": "b"}, "/a")) }},
		probe{name: "pointer/nil-doc", run: func(m *impl) any { return foundOnly(m.lookup(nil, "/a")) }},
	)
	for _, s := range []string{"", "a", "~", "/", "~/", "/~", "~1", "~0", "a/b~c", "\u00e9", "~~//"} {
		probes = append(probes, probe{name: "escape/" + s, run: func(m *impl) any { return m.escapeToken(s) }})
	}
	for _, tt := range []struct {
		tok string
		n   int
	}{
		{"0", 1}, {"0", 0}, {"1", 1}, {"00", 5}, {"01", 5}, {"10", 11}, {"10", 10}, {"-", 3}, {"", 3}, {"5", 1}, {"9", 5},
		{"9223372036854775806", math.MaxInt}, {"9223372036854775807", math.MaxInt}, {"9223372036854775808", math.MaxInt},
		{"99999999999999999999", math.MaxInt}, {"5", -1}, {"+1", 3}, {" 1", 3}, {"1 ", 3}, {"\u0661", 3}, {"0x1", 3},
	} {
		probes = append(probes, probe{name: fmt.Sprintf("index/%q/%d", tt.tok, tt.n), run: func(m *impl) any {
			i, ok := m.pointerIndex(tt.tok, tt.n)
			return [2]any{i, ok}
		}})
	}
	return probes
}

// lookupProbe parses doc with gate's parser (the same tree for both) and
// reads ptr in it.
func lookupProbe(name, doc, ptr string) probe {
	return probe{name: name, run: func(m *impl) any {
		tree, err := gateImpl().parseJSON([]byte(doc), 0)
		if err != nil {
			return "bad test document: " + err.Error()
		}
		r := pointerResult{Valid: m.validPointer(ptr)}
		if r.Valid {
			r.Tokens = m.pointerTokens(ptr)
		}
		r.Value, r.Found = m.lookup(tree, ptr)
		return r
	}}
}

// foundOnly keeps what a lookup found.
func foundOnly(v any, ok bool) pointerResult { return pointerResult{Found: ok, Value: v} }

// timestampProbes returns the timestamps of the table (names
// "timestamp/..." and "fresh/...").
func timestampProbes() []probe {
	var probes []probe
	for _, s := range []string{
		"2026-11-29T16:00:00Z", "2026-11-29T16:00:00.123Z", "2026-11-29T16:00:00.123456789Z", "2026-11-29T16:00:00.1234567891234Z",
		"2026-11-29T16:00:00+01:00", "2026-11-29T16:00:00-07:30", "2026-11-29T16:00:00+00:00", "2026-11-29T16:00:00-00:00",
		"2026-11-29T16:00:00+23:59", "2026-11-29T16:00:00+24:00", "2026-11-29T16:00:00+23:60", "2026-11-29T16:00:00+24:60",
		"2026-11-29T16:00:00+25:00", "2026-11-29T16:00:00+01:61", "2026-11-29T16:00:00+0100", "2026-11-29T16:00:00+01",
		"2026-11-29T16:00:00z", "2026-11-29t16:00:00Z", "2026-11-29 16:00:00Z", "2026-11-29T16:00Z", "2026-11-29T16Z",
		"2026-11-29", "2026-11-29T1:00:00Z", "2026-11-29T01:00:00Z", "2026-11-29T24:00:00Z", "2026-11-29T23:59:60Z",
		"2026-11-29T23:60:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "9999-12-31T23:59:59.999999999-23:59",
		"9999-12-31T23:59:59-24:00", "10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "+2026-11-29T16:00:00Z",
		"2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
		"2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-11-00T00:00:00Z", "2026-11-29T16:00:00,5Z", "2026-11-29T16:00:00.Z",
		"2026-11-29T16:00:00.5", "2026-11-29T16:00:00", "", "2026-11-29T16:00:00Z ", " 2026-11-29T16:00:00Z",
		"2026-11-29T16:00:00ZZ", "2026-11-29T16:00:00+01:00:00", "２０２６-11-29T16:00:00Z", "2026-1-29T16:00:00Z",
		"2026-11-29T16:0:00Z", "2026-11-29T16:00:0Z", "2026-11-29T123:00:00Z", "2026-11-29T16:00:00.5,5Z", "2026/11/29T16:00:00Z",
		// Lower case and leap seconds (RFC 3339 5.6 and 5.7).
		"2026-11-29t16:00:00z", "1970-01-01t00:00:00z", "2016-12-31T23:59:60Z", "2016-12-31t23:59:60z", "2016-12-31T23:59:60.5Z",
		"2016-12-31T18:59:60-05:00", "2017-01-01T00:59:60+01:00", "2016-12-31T23:59:60+00:00", "2016-12-31T23:58:60Z",
		"2016-12-31T22:59:60Z", "2016-12-31T23:59:60+01:00", "2016-12-31T23:59:61Z", "9999-12-31T23:59:60Z",
		"0000-01-01T00:00:60+00:01", "2016-12-31T23:59:60-00:00", "2026-11-29T16:00:00.5z", "2026-11-29T16:00:00Z\n",
		"2026-11-29T16:00:00 Z", "2026-11-29T16:00:00+01:00z", "2026-11-29T16:00:00+1:00", "2026-11-29T16:00:00-01:00:60",
	} {
		probes = append(probes, probe{name: "timestamp/" + s, run: func(m *impl) any {
			t, err := m.parseTimestamp(s)
			return m.verdictOf(instant(t), err)
		}})
	}
	return append(probes, freshProbes()...)
}

// instant renders t as its instant and its offset, which both
// implementations must agree on (not its *time.Location).
func instant(t time.Time) string {
	_, offset := t.Zone()
	return fmt.Sprintf("%s %+d", t.UTC().Format(time.RFC3339Nano), offset)
}

// freshProbes checks timestamps against a window around a fixed now.
func freshProbes() []probe {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	window, skew := protocol.DefaultFreshness, protocol.DefaultFutureSkew
	tests := []struct {
		name, observed string
		window, skew   time.Duration
	}{
		{"now", "2026-11-29T16:00:00Z", window, skew}, {"oldest", "2026-11-29T15:55:00Z", window, skew},
		{"just-stale", "2026-11-29T15:54:59.999999999Z", window, skew}, {"latest", "2026-11-29T16:00:30Z", window, skew},
		{"just-future", "2026-11-29T16:00:30.000000001Z", window, skew}, {"latest-in-offset", "2026-11-29T17:00:30+01:00", window, skew},
		{"oldest-in-offset", "2026-11-29T08:55:00-07:00", window, skew}, {"far-future", "9999-12-31T23:59:59Z", window, skew},
		{"far-past", "0000-01-01T00:00:00Z", window, skew}, {"far-future-offset", "9999-12-31T23:59:59-24:00", window, skew},
		{"garbage", "yesterday", window, skew}, {"empty", "", window, skew}, {"zero-window-now", "2026-11-29T16:00:00Z", 0, 0},
		{"zero-window-past", "2026-11-29T15:59:59.999999999Z", 0, 0}, {"huge-window", "0001-01-01T00:00:00Z", math.MaxInt64, math.MaxInt64},
		{"huge-skew-future", "9999-12-31T23:59:59Z", window, math.MaxInt64},
	}
	probes := make([]probe, len(tests))
	for i, tt := range tests {
		probes[i] = probe{name: "fresh/" + tt.name, run: func(m *impl) any {
			return m.verdictOf(nil, m.fresh(tt.observed, now, tt.window, tt.skew))
		}}
	}
	return probes
}
