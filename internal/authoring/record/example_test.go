package record_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"

	"github.com/toolcert/toolcert/internal/authoring/record"
)

// A recorder between a client and a GitHub-like upstream keeps each
// answer and infers the route the requests share.
func ExampleNew() {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-GitHub-Api-Version", "2022-11-28")
		w.Header().Set("Set-Cookie", "session=secret")
		io.WriteString(w, `[{"id":1,"state":"APPROVED"}]`)
	}))
	defer upstream.Close()
	base, _ := url.Parse(upstream.URL)
	rec, err := record.New(record.Config{Upstream: base})
	if err != nil {
		fmt.Println(err)
		return
	}
	proxy := httptest.NewServer(rec) // on 127.0.0.1
	defer proxy.Close()
	for _, pull := range []string{"1347", "1348"} {
		resp, err := http.Get(proxy.URL + "/repos/octo/hello/pulls/" + pull + "/reviews?access_token=abc")
		if err != nil {
			fmt.Println(err)
			return
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	for _, a := range rec.Answers() {
		fmt.Println(a.Status, a.RawQuery, a.Arguments, a.Header, string(a.Body), a.Note == "")
	}
	method, path, inferences := rec.Route()
	fmt.Println(method, path)
	for _, inf := range inferences {
		fmt.Println(inf.Pointer, inf.What)
	}
	// Output:
	// 200 access_token=REDACTED map[pull:1347] map[Content-Type:[application/json] X-Github-Api-Version:[2022-11-28]] [{"id":1,"state":"APPROVED"}] true
	// 200 access_token=REDACTED map[pull:1348] map[Content-Type:[application/json] X-Github-Api-Version:[2022-11-28]] [{"id":1,"state":"APPROVED"}] true
	// GET /repos/octo/hello/pulls/{pull}/reviews
	// /request/path {pull} varied: 1347, 1348
}

// Infer derives a closed schema from the answers and says what it only
// guessed.
func ExampleInfer() {
	bodies := [][]byte{
		[]byte(`{"state":"APPROVED","submitted_at":"2019-11-17T17:43:43Z","body":null}`),
		[]byte(`{"state":"APPROVED","submitted_at":"2019-11-18T09:12:00Z"}`),
	}
	schema, inferences, err := record.Infer(bodies, record.InferOptions{Enum: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(schema))
	for _, inf := range inferences {
		fmt.Printf("%q %s\n", inf.Pointer, inf.What)
	}
	// Output:
	// {
	//   "$schema": "https://json-schema.org/draft/2020-12/schema",
	//   "title": "inferred from 2 answers",
	//   "type": "object",
	//   "properties": {
	//     "state": {
	//       "type": "string",
	//       "enum": [
	//         "APPROVED"
	//       ]
	//     },
	//     "submitted_at": {
	//       "type": "string",
	//       "format": "date-time"
	//     },
	//     "body": {
	//       "type": "null"
	//     }
	//   },
	//   "required": [
	//     "state",
	//     "submitted_at"
	//   ],
	//   "additionalProperties": false
	// }
	// "" closed: a member the answers never had is refused
	// "/properties/body" absent in 1 of 2 answers: not required
	// "/properties/body" only seen null (in 1 answer): no other type is allowed
	// "/properties/state" enum of the values seen: APPROVED; a value the answers never had is refused
	// "/properties/submitted_at" format date-time: every value seen (2) is an RFC 3339 date-time
	// "/properties/submitted_at" longest seen: 20 characters; no maxLength
}
