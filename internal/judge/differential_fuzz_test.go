package judge_test

import (
	"net/http"
	"reflect"
	"regexp"
	"testing"
	"time"
)

// The fuzz targets extend the differential table to inputs nobody wrote:
// each runs gate and the judge on the fuzzer's input and fails on any
// disagreement. Without -fuzz they run their seeds, the table's inputs.

// differ fails t when gate and the judge read an input differently.
func differ(t *testing.T, input any, run func(m *impl) any) {
	t.Helper()
	g, j := run(gateImpl()), run(judgeImpl())
	if !reflect.DeepEqual(g, j) {
		t.Errorf("%q (-gate +judge):\n%s", input, describeDiff(g, j))
	}
}

func FuzzDifferentialJSON(f *testing.F) {
	for _, in := range jsonInputs() {
		if len(in.in) < 4096 {
			f.Add([]byte(in.in), uint8(0))
		}
	}
	f.Add([]byte(`[[[1]]]`), uint8(2))
	f.Fuzz(func(t *testing.T, raw []byte, depth uint8) {
		differ(t, raw, func(m *impl) any { return m.verdictOf(m.parseJSON(raw, int(depth%8))) })
	})
}

func FuzzDifferentialContentType(f *testing.F) {
	for _, s := range []string{
		"application/json", "Application/JSON; charset=UTF-8", `application/json; charset="utf-8"`, "application/json;",
		"application/json; foo*=junk", "application/json; charset*0*=utf-8''utf%2D; charset*1*=8", "text/plain; charset=latin1",
		"application/json; charset=utf-8; charset=utf-8", " application/json ", `application/json; charset="utf\-8"`,
	} {
		f.Add(s, "application/json")
	}
	f.Fuzz(func(t *testing.T, value, want string) {
		h := http.Header{"Content-Type": {value}}
		differ(t, value, func(m *impl) any { return m.verdictOf(nil, m.contentType(h, want)) })
	})
}

func FuzzDifferentialTimestamp(f *testing.F) {
	for _, s := range []string{
		"2026-11-29T16:00:00Z", "2026-11-29T1:00:00,5+24:60", "0000-02-29T23:59:59.123456789-00:00", "2026-11-29 16:00:00z",
		"9999-12-31T23:59:59.9999999999+01:00", "2026-11-29T16:00:00.Z",
	} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		differ(t, s, func(m *impl) any {
			ts, err := m.parseTimestamp(s)
			return [2]verdict{m.verdictOf(instant(ts), err), m.verdictOf(nil, m.fresh(s, now, 5*time.Minute, 30*time.Second))}
		})
	})
}

func FuzzDifferentialKeyValues(f *testing.F) {
	for _, s := range []string{"host=web-1\nuptime_seconds=42\n", "host=a=b\nuptime_seconds=1\r\n", "\ufeffhost=x\n", "host=\u0085\n"} {
		f.Add([]byte(s))
	}
	keys := []keySpec{{"host", regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)}, {"uptime_seconds", nil}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		differ(t, raw, func(m *impl) any { return m.verdictOf(m.keyValues(raw, keys)) })
	})
}

func FuzzDifferentialPointer(f *testing.F) {
	for _, s := range []string{"", "/a/b~1c/0", "/~01", "/arr/10", "/arr/01", "~", "/a~2"} {
		f.Add(s)
	}
	tree, err := gateImpl().parseJSON([]byte(`{"a":{"b/c":[1,{"~1":2}]},"arr":[0,1,2,3,4,5,6,7,8,9,10],"":{"":3}}`), 0)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ptr string) {
		differ(t, ptr, func(m *impl) any {
			r := pointerResult{Valid: m.validPointer(ptr)}
			if r.Valid {
				r.Tokens = m.pointerTokens(ptr)
			}
			r.Value, r.Found = m.lookup(tree, ptr)
			i, ok := m.pointerIndex(ptr, 1000)
			return [3]any{r, m.escapeToken(ptr), [2]any{i, ok}}
		})
	})
}
