package mocks_test

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/mocks"
)

// statuses requests path n times and returns the status codes, 0 for a
// failed request.
func statuses(tb testing.TB, u *mocks.Upstream, path string, n int) []int {
	tb.Helper()
	var out []int
	for range n {
		resp, _, err := get(tb, u, path)
		if err != nil {
			out = append(out, 0)
			continue
		}
		out = append(out, resp.StatusCode)
	}
	return out
}

func TestSequences(t *testing.T) {
	ok := mocks.JSON(200, []byte(`{}`))
	busy := mocks.Text(503, "busy")
	tests := []struct {
		name string
		seq  []mocks.Response
		want []int
	}{
		{"fail 2 times then succeed, the retry scenario", []mocks.Response{busy.Repeat(2), ok}, []int{503, 503, 200, 200, 200}},
		{"last response repeats", []mocks.Response{mocks.Text(429, ""), ok}, []int{429, 200, 200}},
		{"Times 0 means once", []mocks.Response{busy.Repeat(0), mocks.Text(404, "")}, []int{503, 404, 404}},
		{"a reset in the middle", []mocks.Response{busy, ok.WithFault(mocks.Fault{Reset: true}), ok}, []int{503, 0, 200}},
	}
	u := newUpstream(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u.Reset()
			program(t, u, "GET", "/r", tt.seq...)
			if diff := cmp.Diff(tt.want, statuses(t, u, "/r", len(tt.want))); diff != "" {
				t.Errorf("statuses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestProgramAgainRestartsAndEmptyForgets(t *testing.T) {
	u := newUpstream(t)
	program(t, u, "GET", "/r", mocks.Text(503, "").Repeat(5), mocks.Text(200, ""))
	program(t, u, "GET", "/r", mocks.Text(502, ""), mocks.Text(200, ""))
	if diff := cmp.Diff([]int{502, 200}, statuses(t, u, "/r", 2)); diff != "" {
		t.Errorf("reprogrammed statuses (-want +got):\n%s", diff)
	}
	program(t, u, "GET", "/r")
	if diff := cmp.Diff([]int{501}, statuses(t, u, "/r", 1)); diff != "" {
		t.Errorf("forgotten route statuses (-want +got):\n%s", diff)
	}
}

func TestUnprogrammedAndFallback(t *testing.T) {
	u := newUpstream(t)
	program(t, u, "GET", "/known", mocks.Text(200, "known"))
	_, body, err := get(t, u, "/unknown?x=1")
	if err != nil || len(body) == 0 {
		t.Fatalf("unprogrammed route: %q, %v", body, err)
	}
	if err := u.Fallback(mocks.Text(404, "nope")); err != nil {
		t.Fatalf("Fallback: %v", err)
	}
	got := statuses(t, u, "/other", 1)
	got = append(got, statuses(t, u, "/known", 1)...)
	if err := u.Fallback(); err != nil {
		t.Fatalf("Fallback(): %v", err)
	}
	got = append(got, statuses(t, u, "/other", 1)...)
	if diff := cmp.Diff([]int{404, 200, 501}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	settle(t, u)
	type route struct {
		Route        string
		Unprogrammed bool
		Status       int
	}
	var routes []route
	for _, e := range u.Journal() {
		routes = append(routes, route{e.Route, e.Unprogrammed, e.Served.Status})
	}
	want := []route{{"", true, 501}, {mocks.FallbackRoute, false, 404}, {"GET /known", false, 200}, {"", true, 501}}
	if diff := cmp.Diff(want, routes); diff != "" {
		t.Errorf("journal routes (-want +got):\n%s", diff)
	}
}

func TestProgramRefuses(t *testing.T) {
	tests := []struct {
		name         string
		method, path string
		seq          []mocks.Response
		want         error
	}{
		{"empty method cannot match", "", "/r", nil, mocks.ErrInvalidRoute},
		{"method with space cannot match", "GET /x", "/r", nil, mocks.ErrInvalidRoute},
		{"path without slash cannot match", "GET", "r", nil, mocks.ErrInvalidRoute},
		{"CR in reason would split the head", "GET", "/r", []mocks.Response{{Reason: "OK\r\nX: y"}}, mocks.ErrInvalidResponse},
		{"second response checked too", "GET", "/r", []mocks.Response{{}, {Status: 42}}, mocks.ErrInvalidResponse},
	}
	u := newUpstream(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := u.Program(tt.method, tt.path, tt.seq...); !errors.Is(err, tt.want) {
				t.Errorf("Program error = %v, want %v", err, tt.want)
			}
		})
	}
	if err := u.Fallback(mocks.Response{Status: 1000}); !errors.Is(err, mocks.ErrInvalidResponse) {
		t.Errorf("Fallback error = %v, want ErrInvalidResponse", err)
	}
}
