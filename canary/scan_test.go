package canary

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// testSet returns a Set with three canaries: a and b from New, c from Named.
func testSet(tb testing.TB) (s *Set, a, b, c string) {
	tb.Helper()
	s = NewSet(42, "scan-test")
	a = s.New("body /admin_override (property value)")
	b = s.New("header X-Upstream-Trace")
	c = s.Named("reason", "reason phrase")
	return s, a, b, c
}

// envelope returns an agent envelope with note, the bytes an adapter wrote,
// inside the string data.note.
func envelope(note string) []byte {
	return []byte(`{"tool":"review_status","request_id":"req.J7q94MkP","outcome":"success","data":{"change_id":"CR-1042","decision":"approved","reviewed_by":"ana","note":"` + note + `"}}`)
}

func TestScanFindsEveryEncoding(t *testing.T) {
	s, a, _, _ := testSet(t)
	for i, e := range encoders() {
		if e.alt != "" {
			continue // ambiguous by design; the property test covers it
		}
		t.Run(e.want, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(i)))
			body := envelope(e.fn(a, rng))
			got := Scan([]Part{{Where: "body", Data: body}}, s.All())
			want := []Leak{{Token: a, Planted: "body /admin_override (property value)", Surfaced: "body", Encoding: e.want}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Scan(%s) mismatch (-want +got):\n%s", body, diff)
			}
		})
	}
}

func TestScan(t *testing.T) {
	s, a, b, c := testSet(t)
	upper := strings.ToUpper(a)
	tests := []struct {
		name     string
		parts    []Part
		canaries []Canary
		want     []Leak
	}{
		{
			name:  "ordinary envelope without a canary",
			parts: []Part{{Where: "status line", Data: []byte("HTTP/1.1 200 OK")}, {Where: "body", Data: envelope("all good")}},
		},
		{
			name:     "a different canary of the same Set is not this one",
			parts:    []Part{{Where: "body", Data: envelope(b)}},
			canaries: []Canary{{Token: a, Planted: "p"}, {Token: c, Planted: "q"}},
		},
		{
			name:  "one character short is no leak",
			parts: []Part{{Where: "body", Data: envelope(a[:len(a)-1])}},
		},
		{
			name:  "one character changed is no leak",
			parts: []Part{{Where: "body", Data: envelope(a[:len(a)-1] + "!")}},
		},
		{
			name:  "split across two parts is no leak",
			parts: []Part{{Where: "header X-A", Data: []byte(a[:10])}, {Where: "header X-B", Data: []byte(a[10:])}},
		},
		{
			name:  "every part is scanned and named",
			parts: []Part{{Where: "status line", Data: []byte("HTTP/1.1 200 " + c)}, {Where: "header X-Upstream-Trace", Data: []byte(b)}, {Where: "body", Data: envelope(upper)}},
			want: []Leak{
				{Token: c, Planted: "reason phrase", Surfaced: "status line", Encoding: Raw},
				{Token: b, Planted: "header X-Upstream-Trace", Surfaced: "header X-Upstream-Trace", Encoding: Raw},
				{Token: a, Planted: "body /admin_override (property value)", Surfaced: "body", Encoding: CaseFolded},
			},
		},
		{
			name:  "raw wins over an encoded copy in the same part",
			parts: []Part{{Where: "body", Data: append(envelope(upper), a...)}},
			want:  []Leak{{Token: a, Planted: "body /admin_override (property value)", Surfaced: "body", Encoding: Raw}},
		},
		{
			name:  "leaks are ordered by part then by canary",
			parts: []Part{{Where: "body", Data: []byte(b + " " + a)}, {Where: "header X", Data: []byte(a)}},
			want: []Leak{
				{Token: a, Planted: "body /admin_override (property value)", Surfaced: "body", Encoding: Raw},
				{Token: b, Planted: "header X-Upstream-Trace", Surfaced: "body", Encoding: Raw},
				{Token: a, Planted: "body /admin_override (property value)", Surfaced: "header X", Encoding: Raw},
			},
		},
		{
			name:     "empty and repeated canaries are ignored",
			parts:    []Part{{Where: "body", Data: []byte("x " + a)}},
			canaries: []Canary{{}, {Token: a, Planted: "first"}, {Token: a, Planted: "second"}},
			want:     []Leak{{Token: a, Planted: "first", Surfaced: "body", Encoding: Raw}},
		},
		{
			name:  "json escapes in invalid JSON",
			parts: []Part{{Where: "body", Data: []byte(`{"x": "` + jsonEscapeAll(a) + `", broken`)}},
			want:  []Leak{{Token: a, Planted: "body /admin_override (property value)", Surfaced: "body", Encoding: JSONEscape}},
		},
		{
			name:  "canary next to invalid UTF-8 and NUL bytes",
			parts: []Part{{Where: "body", Data: []byte("\xff\xfe\x00" + a + "\x00\xc3")}},
			want:  []Leak{{Token: a, Planted: "body /admin_override (property value)", Surfaced: "body", Encoding: Raw}},
		},
		{
			name:  "base64 wrapped by MIME line breaks",
			parts: []Part{{Where: "body", Data: []byte("dGhlIGNhbmFyeSBp\r\ncyA=" + " " + lineBreaks(base64Std(a, rand.New(rand.NewPCG(7, 7))), 10))}},
			want:  []Leak{{Token: a, Planted: "body /admin_override (property value)", Surfaced: "body", Encoding: Base64}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			canaries := tt.canaries
			if canaries == nil {
				canaries = s.All()
			}
			got := Scan(tt.parts, canaries)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Scan() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func jsonEscapeAll(s string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, `\u%04x`, r)
	}
	return b.String()
}

func TestScanWithoutCanariesOrParts(t *testing.T) {
	_, a, _, _ := testSet(t)
	if got := Scan([]Part{{Where: "body", Data: []byte(a)}}, nil); got != nil {
		t.Errorf("Scan(no canaries) = %v, want nil", got)
	}
	if got := Scan(nil, []Canary{{Token: a}}); got != nil {
		t.Errorf("Scan(no parts) = %v, want nil", got)
	}
}

// TestScanFindsEveryCanaryAfterEveryEncoder is the property test: for many
// seeds, tokens and surroundings, every encoder's output is found.
func TestScanFindsEveryCanaryAfterEveryEncoder(t *testing.T) {
	const seeds = 60
	for i, e := range encoders() {
		for seed := range uint64(seeds) {
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			s := NewSet(seed, "property")
			tok := s.New("somewhere")
			other := s.New("elsewhere")
			// Spaces keep the noise from joining the encoded token: no
			// stray backslash before it, no base64 run across it.
			data := append(randomText(rng), ' ')
			data = append(data, e.fn(tok, rng)...)
			data = append(append(data, ' '), randomText(rng)...)
			got := Scan([]Part{{Where: "body", Data: data}}, s.All())
			if len(got) != 1 || got[0].Token != tok || (got[0].Encoding != e.want && got[0].Encoding != e.alt) {
				t.Fatalf("seed %d: Scan(%q) = %v, want one leak of %s (not %s) as %s", seed, data, got, tok, other, e.want)
			}
		}
	}
}

// randomText returns up to 64 bytes of mostly printable noise.
func randomText(rng *rand.Rand) []byte {
	const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 {}\":,.-_/+=%&;\\\n"
	b := make([]byte, rng.IntN(65))
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return b
}

func TestScanSurvivesHostileParts(t *testing.T) {
	s, a, _, _ := testSet(t)
	rng := rand.New(rand.NewPCG(3, 3))
	mib := 1 << 20 // the unit of the big cases, smaller when time is short
	if testing.Short() || raceEnabled {
		mib = 1 << 16
	}
	random := make([]byte, mib)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := []struct {
		name string
		data []byte
	}{
		{name: "4 MiB of base64 that decodes to text", data: bytes.Repeat([]byte("QUFB"), mib)},
		{name: "4 MiB of repeated token prefix", data: bytes.Repeat([]byte("tc"), 2*mib)},
		{name: "1 MiB of random bytes", data: random},
		{name: "1 MiB line of hex digits", data: bytes.Repeat([]byte("7a"), mib/2)},
		{name: "escapes and entities cut short", data: []byte(`\u00 \ud800 \udc00\u12 &#; &#x; % %4 %zz \`)},
		{name: "lone and reversed surrogates", data: []byte(`\ud800\u0074 \udc00\ud800 \uDBFF`)},
		{name: "NUL bytes and invalid UTF-8", data: []byte("\x00\x00\xff\xfe\xc3\x28\xe2\x82\xf0\x9f\x92")},
		{name: "expanding NFKC and case folding input", data: bytes.Repeat([]byte("\ufdfa\u0390"), mib/16)},
		{name: "empty", data: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Scan([]Part{{Where: "body", Data: tt.data}}, s.All()); got != nil {
				t.Errorf("Scan() = %v, want no leak", got)
			}
			planted := append(append([]byte{}, tt.data...), base64Std(a, rng)...)
			got := Scan([]Part{{Where: "body", Data: planted}}, s.All())
			if len(got) != 1 || got[0].Token != a {
				t.Errorf("Scan(with canary appended) = %v, want one leak of %s", got, a)
			}
		})
	}
}

// TestScanHasNoFalsePositives scans random envelopes holding, in every
// encoding, other canaries of the same Set and near misses of the one
// sought: nothing may be reported.
func TestScanHasNoFalsePositives(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 99))
		s := NewSet(seed, "negative")
		sought := s.New("body /secret")
		other := s.New("header X-Other")
		nearMiss := []byte(sought)
		nearMiss[2+rng.IntN(len(nearMiss)-2)] ^= 1 // one bit off
		var body bytes.Buffer
		body.Write(randomText(rng))
		for _, e := range encoders() {
			body.WriteString(` "` + e.fn(other, rng) + `" `)
			body.WriteString(` "` + e.fn(string(nearMiss), rng) + `" `)
			body.WriteString(` "` + e.fn(sought[:len(sought)-1], rng) + `" `)
			body.Write(randomText(rng))
		}
		got := Scan([]Part{{Where: "body", Data: body.Bytes()}}, []Canary{{Token: sought, Planted: "body /secret"}})
		if got != nil {
			t.Fatalf("seed %d: Scan(%q) = %v, want no leak", seed, body.Bytes(), got)
		}
	}
}
