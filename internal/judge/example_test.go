package judge_test

import (
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// An upstream answer with a name spelled twice, once escaped, is refused
// at gate parse; the code is what a correct adapter answers the agent.
func ExampleParseJSON() {
	_, err := judge.ParseJSON([]byte(`{"decision":"approved","\u0064ecision":"rejected"}`), judge.Limits{})
	r, _ := judge.AsRejection(err)
	code, retryable := r.Code()
	fmt.Println(r.Gate, r.Reason, code, retryable)

	doc, _ := judge.ParseJSON([]byte(`{"n":1.50}`), judge.Limits{})
	fmt.Printf("%#v\n", doc)
	// Output:
	// parse duplicate_name INVALID_RESPONSE false
	// map[string]interface {}{"n":"1.50"}
}

func ExampleReject() {
	err := fmt.Errorf("read answer: %w", judge.Reject(protocol.GateTransport, protocol.ReasonByteLimit, "body exceeds %d bytes", 65536))
	if r, ok := judge.AsRejection(err); ok {
		fmt.Println(r.Gate, r.Reason, "-", r.Detail())
	}
	// Output: transport byte_limit - body exceeds 65536 bytes
}

func ExampleCheckContentType() {
	for _, ct := range []string{"application/json; charset=UTF-8", "application/json; charset=latin1"} {
		h := http.Header{"Content-Type": {ct}}
		fmt.Println(ct, "->", judge.CheckContentType(h, "application/json"))
	}
	// Output:
	// application/json; charset=UTF-8 -> <nil>
	// application/json; charset=latin1 -> parse content_type: Content-Type parameter "charset"="latin1", want only charset=utf-8
}

func ExampleParseKeyValues() {
	keys := []judge.KeySpec{
		{Name: "host", Pattern: regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{0,62}$`)},
		{Name: "uptime_seconds", Pattern: regexp.MustCompile(`^[0-9]{1,12}$`)},
	}
	kv, err := judge.ParseKeyValues([]byte("host=web-1\nuptime_seconds=86400\n"), keys)
	fmt.Println(kv, err)
	_, err = judge.ParseKeyValues([]byte("host=web-1\r\nuptime_seconds=86400\r\n"), keys)
	fmt.Println(err)
	// Output:
	// map[host:web-1 uptime_seconds:86400] <nil>
	// parse text_format: carriage return
}

func ExampleCompile() {
	s, err := judge.Compile("review", []byte(`{
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"type": "object",
		"properties": {"change_id": {"type": "string", "pattern": "^CR-[0-9]{1,10}$"}},
		"required": ["change_id"],
		"additionalProperties": false
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, _ := judge.ParseJSON([]byte(`{"change_id":"CR-1042","note":"hi"}`), judge.Limits{})
	r, _ := judge.AsRejection(s.Validate(doc))
	fmt.Println(s.Name(), r.Gate, r.Reason)
	// Output: review schema schema_violation
}

func ExampleClosed() {
	fmt.Println(judge.Closed([]byte(`{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`)))
	fmt.Println(judge.Closed([]byte(`{"properties":{"a":{"properties":{"b":{}}}},"additionalProperties":false}`)))
	// Output:
	// <nil>
	// object schema is not closed at "/properties/a"
}

func ExampleLookup() {
	doc, _ := judge.ParseJSON([]byte(`{"reviewed_by":{"login":"alice"},"labels":["a/b"]}`), judge.Limits{})
	login, ok := judge.Lookup(doc, "/reviewed_by/"+judge.EscapePointerToken("login"))
	fmt.Println(login, ok)
	_, ok = judge.Lookup(doc, "/labels/01")
	fmt.Println(ok, judge.ValidPointer("/labels/~2"), judge.PointerTokens("/a~1b/~0"))
	// Output:
	// alice true
	// false false [a/b ~]
}

func ExamplePointerIndex() {
	fmt.Println(judge.PointerIndex("2", 3))
	fmt.Println(judge.PointerIndex("3", 3))
	fmt.Println(judge.PointerIndex("02", 3))
	// Output:
	// 2 true
	// 0 false
	// 0 false
}

func ExampleParseTimestamp() {
	t, err := judge.ParseTimestamp("2026-11-29T17:00:00.25+01:00")
	fmt.Println(t.UTC(), err)
	_, err = judge.ParseTimestamp("2026-11-29 16:00:00Z")
	fmt.Println(err)
	// Output:
	// 2026-11-29 16:00:00.25 +0000 UTC <nil>
	// semantic bad_timestamp: timestamp "2026-11-29 16:00:00Z": not an RFC 3339 date-time: bad time of day
}

func ExampleFresh() {
	now := time.Date(2026, 11, 29, 16, 0, 0, 0, time.UTC)
	for _, observed := range []string{"2026-11-29T15:55:00Z", "2026-11-29T15:54:59Z", "2026-11-29T16:00:31Z"} {
		err := judge.Fresh(observed, now, protocol.DefaultFreshness, protocol.DefaultFutureSkew)
		if r, ok := judge.AsRejection(err); ok {
			fmt.Println(observed, r.Reason)
			continue
		}
		fmt.Println(observed, "fresh")
	}
	// Output:
	// 2026-11-29T15:55:00Z fresh
	// 2026-11-29T15:54:59Z stale
	// 2026-11-29T16:00:31Z future
}

func ExampleEqual() {
	doc, _ := judge.ParseJSON([]byte(`{"change_id":"CR-1043"}`), judge.Limits{})
	got, _ := judge.Lookup(doc, "/change_id")
	fmt.Println(judge.Equal("/change_id", got, "CR-1042"))
	// Output: semantic binding_mismatch: /change_id is "CR-1043", want "CR-1042"
}
