package corpus_test

import (
	"fmt"
	"time"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/corpus"
)

func ExampleCorpus_Evaluate() {
	c := corpus.New(toolcert.Fixtures())
	t, err := c.Tool("host_uptime")
	if err != nil {
		panic(err)
	}
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	args := map[string]string{"host": "web-1"}
	answers := []corpus.Answer{
		{Status: 200, ContentType: "text/plain", Body: []byte("host=web-1\nuptime_seconds=864000\n")},
		{Status: 200, ContentType: "text/plain", Body: []byte("*** Authorized use only ***\nhost=web-1\nuptime_seconds=864000\n")},
		{Status: 503, ContentType: "text/html", Body: []byte("<h1>busy</h1>")},
	}
	for _, a := range answers {
		out, err := c.Evaluate(t, "v1", a, args, now, corpus.DefaultLimits())
		if err != nil {
			panic(err) // a broken corpus
		}
		if out.Accepted {
			fmt.Println("accepted", out.Data)
			continue
		}
		fmt.Println(out.Code, out.Retryable, out.Gate, out.Reason)
	}
	// Output:
	// accepted map[host:web-1 uptime_seconds:864000]
	// INVALID_RESPONSE false parse text_format
	// UPSTREAM_UNAVAILABLE true transport status_5xx
}

func ExampleDefaultLimits() {
	fmt.Printf("%+v\n", corpus.DefaultLimits())
	// Output: {MaxBytes:65536 MaxDepth:32 Freshness:5m0s Skew:30s}
}
