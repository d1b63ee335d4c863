package mocks_test

import (
	"errors"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolcert/toolcert/mocks"
)

// TestSideRoutes: a side route answers what no program takes, by exact
// path or by pattern, before the fallback and the 501, behind every
// programmed route, and survives Reset.
func TestSideRoutes(t *testing.T) {
	u := newUpstream(t)
	err := u.Side(
		mocks.SideRoute{Method: "GET", Path: "/api", Response: mocks.JSON(200, []byte(`{"versions":["v1"]}`))},
		mocks.SideRoute{Method: "*", Pattern: regexp.MustCompile(`^/apis(/.*)?$`), Response: mocks.JSON(200, []byte(`{"groups":[]}`))},
	)
	if err != nil {
		t.Fatal(err)
	}
	program(t, u, "GET", "/api", mocks.Text(418, "the scenario's own"))
	u.Reset()
	got := statuses(t, u, "/api", 1)
	got = append(got, statuses(t, u, "/apis/apps/v1", 1)...)
	program(t, u, "GET", "/api", mocks.Text(418, "the scenario's own"))
	got = append(got, statuses(t, u, "/api", 1)...)
	if err := u.Fallback(mocks.Text(404, "fallback")); err != nil {
		t.Fatal(err)
	}
	got = append(got, statuses(t, u, "/apis", 1)...)
	got = append(got, statuses(t, u, "/elsewhere", 1)...)
	if diff := cmp.Diff([]int{200, 200, 418, 200, 404}, got); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
	settle(t, u)
	var routes []string
	for _, e := range u.Journal() {
		routes = append(routes, e.Route)
	}
	want := []string{"side GET /api", "side * ~^/apis(/.*)?$", "GET /api", "side * ~^/apis(/.*)?$", mocks.FallbackRoute}
	if diff := cmp.Diff(want, routes); diff != "" {
		t.Errorf("journal routes (-want +got):\n%s", diff)
	}
	if got, side := u.Received(), u.SideReceived(); got != 5 || side != 3 {
		t.Errorf("Received %d, SideReceived %d: want 5 and the 3 side routes answered", got, side)
	}
	u.Reset()
	if side := u.SideReceived(); side != 0 {
		t.Errorf("SideReceived after Reset = %d", side)
	}
}

// TestSideRoutesRefused: a side route without a method, a path or a
// pattern, or with a relative path, is refused and the others stay.
func TestSideRoutesRefused(t *testing.T) {
	u := newUpstream(t)
	for _, s := range []mocks.SideRoute{
		{Path: "/api", Response: mocks.Text(200, "")},
		{Method: "GET", Response: mocks.Text(200, "")},
		{Method: "GET", Path: "api", Response: mocks.Text(200, "")},
	} {
		if err := u.Side(s); !errors.Is(err, mocks.ErrInvalidRoute) {
			t.Errorf("Side(%+v) = %v, want ErrInvalidRoute", s, err)
		}
	}
}
