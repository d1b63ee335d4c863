package canary_test

import (
	"encoding/base64"
	"fmt"

	"github.com/toolcert/toolcert/canary"
)

func ExampleNewSet() {
	// One Set per scenario: the run seed and the scenario id make the
	// tokens reproducible for this run and unguessable for an adapter.
	set := canary.NewSet(20261129, "review_status/rejects-extra-field")
	trace := set.New("header X-Upstream-Trace")
	reason := set.New("reason phrase")
	fmt.Println(len(trace), trace != reason)
	for _, c := range set.All() {
		fmt.Println(c.Planted)
	}
	// Output:
	// 20 true
	// header X-Upstream-Trace
	// reason phrase
}

func ExampleSet_New() {
	set := canary.NewSet(1, "scenario")
	fmt.Println(set.New("body /admin_override (property value)"))
	// Output:
	// tc4eqwalm6ckubgvxorw
}

func ExampleSet_Named() {
	set := canary.NewSet(1, "scenario")
	// A fixture that says {{canary:secret}} twice gets the same token twice.
	first := set.Named("secret", "body /comment")
	again := set.Named("secret", "header X-Secret")
	fmt.Println(first == again)
	fmt.Println(set.All()[0].Planted)
	// Output:
	// true
	// body /comment; header X-Secret
}

func ExampleSet_All() {
	set := canary.NewSet(1, "scenario")
	set.New("header X-A")
	set.Named("b", "body /b")
	for _, c := range set.All() {
		fmt.Println(c.Planted)
	}
	// Output:
	// header X-A
	// body /b
}

func ExampleScan() {
	set := canary.NewSet(1, "scenario")
	trace := set.New("header X-Upstream-Trace")
	set.New("body /admin_override (property value)")

	// The adapter under test copied the upstream trace header into the
	// body, base64-encoded.
	body := fmt.Sprintf(`{"outcome":"success","data":{"debug":%q}}`,
		base64.StdEncoding.EncodeToString([]byte("trace="+trace)))
	output := []canary.Part{
		{Where: "status line", Data: []byte("HTTP/1.1 200 OK")},
		{Where: "header Content-Type", Data: []byte("application/json")},
		{Where: "body", Data: []byte(body)},
	}
	for _, leak := range canary.Scan(output, set.All()) {
		fmt.Println(leak.Planted, "->", leak.Surfaced, "as", leak.Encoding)
	}
	// Output:
	// header X-Upstream-Trace -> body as base64
}

func ExampleLeak_String() {
	leak := canary.Leak{
		Token:    "tcuawlk7iahezmbr7x6b",
		Planted:  "header X-Upstream-Trace",
		Surfaced: "body",
		Encoding: "json-escape+base64",
	}
	fmt.Println(leak)
	// Output:
	// canary tcuawlk7iahezmbr7x6b planted in header X-Upstream-Trace surfaced in body as json-escape+base64
}
