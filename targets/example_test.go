package targets_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/toolcert/toolcert/targets"
)

// fakeAdapter stands in for a real adapter: it answers /healthz and every
// tool call with a success envelope.
func fakeAdapter() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(http.ResponseWriter, *http.Request) {})
	mux.HandleFunc("POST /v1/tools/{tool}/invoke", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"tool":%q,"request_id":"req.example1","outcome":"success","data":{}}`, r.PathValue("tool"))
	})
	mux.HandleFunc("POST /v1/approvals/{id}", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1024))
		fmt.Fprintf(w, "approval %s: %s", r.PathValue("id"), body)
	})
	return mux
}

func ExampleNewInProcess() {
	build := func(env targets.Env) (http.Handler, io.Closer, error) {
		// A real build function wires the adapter to env.UpstreamURL and
		// env.AuditFile, and returns the audit file as the closer.
		return fakeAdapter(), nil, nil
	}
	reference := targets.NewInProcess("reference", build)
	fmt.Println(reference)

	ctx := context.Background()
	inst, err := reference.Start(ctx, targets.Env{UpstreamURL: "http://127.0.0.1:9"})
	if err != nil {
		log.Fatal(err)
	}
	defer inst.Stop(ctx)
	fmt.Println("alive:", inst.Alive(ctx))
	// Output:
	// in-process reference
	// alive: <nil>
}

func ExampleNewProcess() {
	argv, err := targets.SplitCommand(`./my-adapter --config "adapter config.json"`)
	if err != nil {
		log.Fatal(err)
	}
	adapter, err := targets.NewProcess(argv,
		targets.WithRename(map[string]string{"TOOLCERT_LISTEN": "MY_ADAPTER_ADDR"}),
		targets.WithReadyTimeout(5*time.Second),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(adapter)
	// Output:
	// process ./my-adapter --config 'adapter config.json'
}

// The lifecycle of a process target in one lane (not run: it needs the
// adapter's executable).
func ExampleProcess_Start() {
	adapter, err := targets.NewProcess([]string{"./my-adapter"})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	inst, err := adapter.Start(ctx, targets.Env{
		UpstreamURL: "http://127.0.0.1:41234",
		AuditFile:   "/tmp/lane1/audit.jsonl",
	})
	var exit *targets.ExitError
	switch {
	case errors.As(err, &exit):
		log.Fatalf("the adapter exited with %s:\n%s", exit.Status, exit.Tail)
	case errors.Is(err, targets.ErrNotReady):
		log.Fatalf("the adapter never answered /healthz: %v", err)
	case err != nil:
		log.Fatal(err)
	}
	defer inst.Stop(ctx)
	out, err := targets.NewClient().Invoke(ctx, inst.URL(), "review_status", []byte(`{"change_id":"CR-1042"}`), "token")
	if err != nil {
		log.Printf("call failed: %v; adapter output:\n%s", err, inst.Logs())
	}
	fmt.Println(out.StatusLine)
}

func ExampleNewURL() {
	// An adapter that already runs; here an in-process one stands in.
	running, err := targets.NewInProcess("stand-in", func(targets.Env) (http.Handler, io.Closer, error) {
		return fakeAdapter(), nil, nil
	}).Start(context.Background(), targets.Env{})
	if err != nil {
		log.Fatal(err)
	}
	defer running.Stop(context.Background())

	adapter, err := targets.NewURL(running.URL(), targets.WithReadyTimeout(2*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	inst, err := adapter.Start(context.Background(), targets.Env{}) // Env is ignored
	if err != nil {
		log.Fatal(err)
	}
	defer inst.Stop(context.Background()) // leaves the adapter running
	fmt.Println(inst.URL() == running.URL())
	// Output: true
}

func ExampleSplitCommand() {
	argv, err := targets.SplitCommand(`./adapter --name "my adapter" --pattern '*.json' a\ b`)
	fmt.Printf("%q %v\n", argv, err)

	_, err = targets.SplitCommand(`./adapter --token $(cat token)`)
	fmt.Println(errors.Is(err, targets.ErrUnsupportedSyntax), err)
	// Output:
	// ["./adapter" "--name" "my adapter" "--pattern" "*.json" "a b"] <nil>
	// true split command: unsupported shell syntax: command substitution $(...) at 1:19
}

func ExampleEnv_Vars() {
	env := targets.Env{
		UpstreamURL: "http://127.0.0.1:41234",
		Listen:      "127.0.0.1:41235",
		Extra:       map[string]string{"TOOLCERT_MAX_BYTES": "65536"},
	}
	for _, v := range env.Vars(map[string]string{"TOOLCERT_LISTEN": "PORT_ADDR"}) {
		fmt.Println(v)
	}
	// Output:
	// TOOLCERT_UPSTREAM_URL=http://127.0.0.1:41234
	// PORT_ADDR=127.0.0.1:41235
	// TOOLCERT_MAX_BYTES=65536
}

func ExampleFreePort() {
	addr, err := targets.FreePort()
	if err != nil {
		log.Fatal(err)
	}
	host, _, err := net.SplitHostPort(addr)
	fmt.Println(host, err)
	// Output: 127.0.0.1 <nil>
}

func ExampleNewClient() {
	nobody, err := targets.FreePort() // nothing listens there
	if err != nil {
		log.Fatal(err)
	}
	client := targets.NewClient(targets.WithMaxBody(64<<10), targets.WithTimeout(5*time.Second))
	_, err = client.Invoke(context.Background(), "http://"+nobody, "review_status", nil, "")
	fmt.Println(errors.Is(err, targets.ErrConnection))
	// Output: true
}

func ExampleClient_Invoke() {
	adapter := httptest.NewServer(fakeAdapter())
	defer adapter.Close()

	client := targets.NewClient()
	out, err := client.Invoke(context.Background(), adapter.URL, "review_status", []byte(`{"change_id":"CR-1042"}`), "agent-token")
	switch {
	case errors.Is(err, targets.ErrTimeout):
		log.Fatal("the adapter hung: ", err)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println(out.StatusLine)
	fmt.Println(out.Header.Get("Content-Type"))
	fmt.Println(string(out.Body), out.Truncated)
	// Output:
	// HTTP/1.1 200 OK
	// application/json
	// {"tool":"review_status","request_id":"req.example1","outcome":"success","data":{}} false
}

func ExampleClient_Approve() {
	adapter := httptest.NewServer(fakeAdapter())
	defer adapter.Close()

	out, err := targets.NewClient().Approve(context.Background(), adapter.URL, "ap.123", true, "agent-token")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(out.Body))
	// Output: approval ap.123: {"approve":true}
}

func ExampleClient_Post() {
	adapter := httptest.NewServer(fakeAdapter())
	defer adapter.Close()

	// A body that is not {"arguments": {...}}: a conforming adapter answers
	// 400 with DENIED; the stand-in here does not check.
	out, err := targets.NewClient().Post(context.Background(), adapter.URL, "/v1/tools/review_status/invoke", []byte(`[]`), "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(out.StatusCode)
	// Output: 200
}

// FailureLine reads what an adapter printed as it failed for the line a
// person needs first.
func ExampleFailureLine() {
	output := "starting on 127.0.0.1:8080\npanic: no upstream URL\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/adapter/main.go:21 +0x65\n"
	fmt.Println(targets.FailureLine(output))
	// Output: panic: no upstream URL (in main.main() at /src/adapter/main.go:21)
}
