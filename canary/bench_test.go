package canary

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkScan scans a 1 MiB JSON body for 20 canaries, none of which it
// holds.
func BenchmarkScan(b *testing.B) {
	s := NewSet(1, "bench")
	for i := range 20 {
		s.New(fmt.Sprintf("place %d", i))
	}
	body := jsonBody(1 << 20)
	parts := []Part{{Where: "body", Data: body}}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if leaks := Scan(parts, s.All()); leaks != nil {
			b.Fatalf("Scan() = %v, want no leak", leaks)
		}
	}
}

// BenchmarkScanHostile scans 4 MiB of base64 that decodes to printable
// text at two offsets, the most work a body can ask of the decoders.
func BenchmarkScanHostile(b *testing.B) {
	s := NewSet(1, "bench")
	for i := range 20 {
		s.New(fmt.Sprintf("place %d", i))
	}
	body := bytes.Repeat([]byte("QUFB"), 1<<20)
	parts := []Part{{Where: "body", Data: body}}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Scan(parts, s.All())
	}
}

// jsonBody returns about n bytes of a JSON array of ordinary records, with
// escapes, non-ASCII text, hex ids and base64 blobs like real output.
func jsonBody(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var buf bytes.Buffer
	buf.WriteString(`{"items":[`)
	for i := 0; buf.Len() < n; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `{"id":"run_%016x","state":"succeeded","message":"Build #%d finished \u2014 caf\u00e9 \"ok\"\nsee https://ci.example/r?id=%d&x=%%20y","sha":"%040x","blob":"%s"}`,
			rng.Uint64(), i, i, rng.Uint64(), base64Std("some log line "+fmt.Sprint(i), rng))
	}
	buf.WriteString(`]}`)
	return buf.Bytes()
}

// BenchmarkScanRandom scans 1 MiB of random bytes, binary output.
func BenchmarkScanRandom(b *testing.B) {
	s := NewSet(1, "bench")
	for i := range 20 {
		s.New(fmt.Sprintf("place %d", i))
	}
	rng := rand.New(rand.NewPCG(3, 3))
	body := make([]byte, 1<<20)
	for i := range body {
		body[i] = byte(rng.Uint32())
	}
	parts := []Part{{Where: "body", Data: body}}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Scan(parts, s.All())
	}
}
