package mocks_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"strings"
	"time"

	"github.com/toolcert/toolcert/mocks"
)

// fetch sends GET url and prints the status line and body, or the error.
func fetch(url string) {
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		fmt.Println("error")
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	fmt.Printf("%s %q", resp.Status, body)
	if err != nil {
		fmt.Printf(" (%v)", err)
	}
	fmt.Println()
}

// start returns a started Upstream for the examples.
func start(opts ...mocks.Option) *mocks.Upstream {
	u, err := mocks.NewUpstream(opts...)
	if err != nil {
		log.Fatal(err)
	}
	return u
}

// settled waits for the mock to record every response.
func settled(u *mocks.Upstream) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := u.Settle(ctx); err != nil {
		log.Fatal(err)
	}
}

func ExampleNewUpstream() {
	u, err := mocks.NewUpstream()
	if err != nil {
		log.Fatal(err)
	}
	defer u.Close()
	if err := u.Program("GET", "/reviews/CR-1", mocks.JSON(200, []byte(`{"change_id":"CR-1"}`))); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/reviews/CR-1")
	// Output: 200 OK "{\"change_id\":\"CR-1\"}"
}

func ExampleWithAddr() {
	_, err := mocks.NewUpstream(mocks.WithAddr("0.0.0.0:9999"))
	fmt.Println(err)
	// Output: start mock upstream: upstream address "0.0.0.0:9999": address is not loopback
}

func ExampleWithMaxRecordedBody() {
	u := start(mocks.WithMaxRecordedBody(4))
	defer u.Close()
	resp, err := http.Post(u.URL()+"/upload", "text/plain", strings.NewReader("abcdefghijkl"))
	if err == nil {
		resp.Body.Close()
	}
	settled(u)
	e := u.Journal()[0]
	fmt.Printf("%q of %d bytes, truncated %v\n", e.Body, e.BodySize, e.BodyTruncated)
	// Output: "abcd" of 12 bytes, truncated true
}

func ExampleUpstream_URL() {
	u := start()
	defer u.Close()
	fmt.Println(u.URL()[:17])
	// Output: http://127.0.0.1:
}

func ExampleUpstream_Program() {
	u := start()
	defer u.Close()
	// Fail twice, then succeed: the retry scenario.
	err := u.Program("GET", "/deployments/prod",
		mocks.Text(503, "busy").Repeat(2),
		mocks.JSON(200, []byte(`{"environment":"prod"}`)),
	)
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		fetch(u.URL() + "/deployments/prod")
	}
	// Output:
	// 503 Service Unavailable "busy"
	// 503 Service Unavailable "busy"
	// 200 OK "{\"environment\":\"prod\"}"
}

func ExampleUpstream_Fallback() {
	u := start()
	defer u.Close()
	fetch(u.URL() + "/anything")
	if err := u.Fallback(mocks.Text(404, "not here")); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/anything")
	// Output:
	// 501 Not Implemented "toolcert mock: no response programmed for this route\n"
	// 404 Not Found "not here"
}

func ExampleUpstream_Journal() {
	u := start()
	defer u.Close()
	if err := u.Program("GET", "/hosts/web-1/uptime", mocks.Text(200, "host=web-1\nuptime_seconds=42\n")); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/hosts/web-1/uptime?verbose=1")
	settled(u)
	for _, e := range u.Journal() {
		fmt.Println(e.Seq, e.Route, e.RawQuery, e.Served.Status, e.Served.BodyBytes)
	}
	// Output:
	// 200 OK "host=web-1\nuptime_seconds=42\n"
	// 1 GET /hosts/web-1/uptime verbose=1 200 29
}

func ExampleUpstream_Requests() {
	u := start()
	defer u.Close()
	fetch(u.URL() + "/a")
	fetch(u.URL() + "/b")
	fmt.Println(len(u.Requests("GET", "/a")), len(u.Requests("POST", "/a")))
	// Output:
	// 501 Not Implemented "toolcert mock: no response programmed for this route\n"
	// 501 Not Implemented "toolcert mock: no response programmed for this route\n"
	// 1 0
}

func ExampleUpstream_Settle() {
	u := start()
	defer u.Close()
	if err := u.Program("GET", "/r", mocks.JSON(200, []byte(`{}`)).WithFault(mocks.Fault{TruncateAfter: 1})); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/r")
	// The client may have read the last byte before the mock recorded it.
	settled(u)
	s := u.Journal()[0].Served
	fmt.Println(s.Complete, s.Fault, s.BodyBytes)
	// Output:
	// 200 OK "{" (unexpected EOF)
	// true truncated 1
}

func ExampleUpstream_Reset() {
	u := start()
	defer u.Close()
	if err := u.Program("GET", "/r", mocks.Text(200, "first scenario")); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/r")
	u.Reset()
	fmt.Println(len(u.Journal()))
	fetch(u.URL() + "/r")
	// Output:
	// 200 OK "first scenario"
	// 0
	// 501 Not Implemented "toolcert mock: no response programmed for this route\n"
}

func ExampleUpstream_Close() {
	u := start()
	if err := u.Program("GET", "/slow", mocks.Response{Fault: mocks.Fault{DelayHeaders: time.Hour}}); err != nil {
		log.Fatal(err)
	}
	fetched := make(chan error, 1)
	go func() {
		c := &http.Client{Timeout: 5 * time.Second}
		resp, err := c.Get(u.URL() + "/slow")
		if err == nil {
			resp.Body.Close()
		}
		fetched <- err
	}()
	for i := 0; i < 5000 && len(u.Journal()) == 0; i++ {
		time.Sleep(time.Millisecond) // wait for the request to arrive
	}
	closeErr := u.Close() // the delayed handler wakes and closes its connection
	fetchErr := <-fetched
	fmt.Println(closeErr)
	if fetchErr != nil {
		fmt.Println("error")
	}
	// Output:
	// <nil>
	// error
}

func ExampleResponse_Validate() {
	r := mocks.Response{Status: 200, Reason: "OK\r\nX-Injected: 1"}
	fmt.Println(r.Validate())
	// Output: reason phrase contains CR or LF: invalid response
}

func ExampleResponse_WithHeader() {
	u := start()
	defer u.Close()
	r := mocks.JSON(200, []byte(`{}`)).WithHeader("Content-Type", "text/html")
	if err := u.Program("GET", "/r", r); err != nil {
		log.Fatal(err)
	}
	resp, err := http.Get(u.URL() + "/r")
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.Header["Content-Type"])
	// Output: [application/json text/html]
}

func ExampleResponse_WithFault() {
	u := start()
	defer u.Close()
	r := mocks.JSON(200, []byte(`{"a":1}`)).WithFault(mocks.Fault{Reset: true})
	if err := u.Program("GET", "/r", r); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/r")
	// Output: error
}

func ExampleResponse_Repeat() {
	u := start()
	defer u.Close()
	if err := u.Program("GET", "/r", mocks.Text(429, "slow down").Repeat(3), mocks.Text(200, "ok")); err != nil {
		log.Fatal(err)
	}
	for range 4 {
		fetch(u.URL() + "/r")
	}
	// Output:
	// 429 Too Many Requests "slow down"
	// 429 Too Many Requests "slow down"
	// 429 Too Many Requests "slow down"
	// 200 OK "ok"
}

func ExampleFault() {
	u := start()
	defer u.Close()
	body := []byte(`{"change_id":"CR-1","decision":"approved"}`)
	err := u.Program("GET", "/r", mocks.JSON(200, body).WithFault(mocks.Fault{
		DelayHeaders:  10 * time.Millisecond,
		DribbleChunk:  8,
		DribbleEvery:  time.Millisecond,
		TruncateAfter: 20,
	}))
	if err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/r")
	// Output: 200 OK "{\"change_id\":\"CR-1\"," (unexpected EOF)
}

func ExampleJSON() {
	u := start()
	defer u.Close()
	// Duplicate members survive: the mock serves the bytes as given.
	if err := u.Program("GET", "/r", mocks.JSON(200, []byte(`{"a":1,"a":2}`))); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/r")
	// Output: 200 OK "{\"a\":1,\"a\":2}"
}

func ExampleText() {
	r := mocks.Text(200, "host=web-1\nuptime_seconds=42\n")
	fmt.Println(r.Header[0].Value)
	// Output: text/plain; charset=utf-8
}

func ExampleErrorPage() {
	u := start()
	defer u.Close()
	if err := u.Program("GET", "/r", mocks.ErrorPage(502, "<html><body>Bad Gateway</body></html>")); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/r")
	// Output: 502 Bad Gateway "<html><body>Bad Gateway</body></html>"
}

func ExampleGenerated() {
	u := start()
	defer u.Close()
	if err := u.Program("GET", "/big", mocks.Generated(20)); err != nil {
		log.Fatal(err)
	}
	fetch(u.URL() + "/big")
	// Output: 200 OK "{\"padding\":\"aaaaaa\"}"
}
