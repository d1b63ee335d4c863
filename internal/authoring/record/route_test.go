package record

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSingular(t *testing.T) {
	cases := []struct{ word, want, why string }{
		{"pulls", "pull", "a plain plural loses its s"},
		{"repos", "repo", "a plain plural loses its s"},
		{"Users", "user", "names are lower case"},
		{"policies", "policy", "ies becomes y"},
		{"branches", "branch", "ches loses es"},
		{"boxes", "box", "xes loses es"},
		{"addresses", "address", "sses loses es"},
		{"status", "status", "us is no plural"},
		{"analysis", "analysis", "is is no plural"},
		{"access", "access", "ss is no plural"},
		{"data", "data", "no s, nothing to drop"},
		{"s", "s", "a lone s stays"},
		{"ies", "ie", "too short for ies -> y: only the s goes"},
		{"check-runs", "check-run", "only the end changes"},
	}
	for _, c := range cases {
		if got := singular(c.word); got != c.want {
			t.Errorf("singular(%q) = %q, want %q (%s)", c.word, got, c.want, c.why)
		}
	}
}

// routeCase is one rule of route inference.
type routeCase struct {
	name, why  string
	reqs       []request
	wantMethod string
	wantPath   string
	infs       []Inference
}

func routeCases() []routeCase {
	return []routeCase{
		{name: "github reviews", why: "a varying segment after a literal is named after it, one after an argument falls back",
			reqs:       []request{{"GET", "/repos/octo/hello/pulls/1347/reviews"}, {"GET", "/repos/mona/world/pulls/1348/reviews"}, {"GET", "/repos/mona/world/pulls/1348/reviews"}},
			wantMethod: "GET", wantPath: "/repos/{repo}/{arg1}/pulls/{pull}/reviews",
			infs: []Inference{{routePointer, "{arg1} varied: hello, world"}, {routePointer, "{pull} varied: 1347, 1348"}, {routePointer, "{repo} varied: octo, mona"}}},
		{name: "one owner", why: "a segment equal in every path is literal",
			reqs:       []request{{"GET", "/repos/octo/hello/pulls/1347/reviews"}, {"GET", "/repos/octo/hello/pulls/1348/reviews"}},
			wantMethod: "GET", wantPath: "/repos/octo/hello/pulls/{pull}/reviews",
			infs: []Inference{{routePointer, "{pull} varied: 1347, 1348"}}},
		{name: "first segment varies", why: "with no segment before it, the name falls back",
			reqs:       []request{{"GET", "/a/x"}, {"GET", "/b/x"}},
			wantMethod: "GET", wantPath: "/{arg1}/x",
			infs: []Inference{{routePointer, "{arg1} varied: a, b"}}},
		{name: "repeated name", why: "a name already taken falls back, the first keeps it",
			reqs:       []request{{"GET", "/items/1/items/2"}, {"GET", "/items/3/items/4"}},
			wantMethod: "GET", wantPath: "/items/{item}/items/{arg1}",
			infs: []Inference{{routePointer, "{arg1} varied: 2, 4"}, {routePointer, "{item} varied: 1, 3"}}},
		{name: "fallbacks count up", why: "every fallback takes the next number",
			reqs:       []request{{"GET", "/a/b/c"}, {"GET", "/d/e/f"}},
			wantMethod: "GET", wantPath: "/{arg1}/{arg2}/{arg3}"},
		{name: "literal not a name", why: "a literal that makes no identifier falls back",
			reqs:       []request{{"GET", "/2024/1"}, {"GET", "/2024/2"}},
			wantMethod: "GET", wantPath: "/2024/{arg1}"},
		{name: "dashed literal", why: "a dash becomes an underscore",
			reqs:       []request{{"GET", "/check-runs/1"}, {"GET", "/check-runs/2"}},
			wantMethod: "GET", wantPath: "/check-runs/{check_run}"},
		{name: "decoded values", why: "an argument's values are listed decoded",
			reqs:       []request{{"GET", "/files/a%2Fb"}, {"GET", "/files/c%20d"}},
			wantMethod: "GET", wantPath: "/files/{file}",
			infs: []Inference{{routePointer, `{file} varied: a/b, "c d"`}}},
		{name: "one path", why: "with one path nothing shows which segments are arguments",
			reqs:       []request{{"GET", "/repos/octo/hello"}, {"GET", "/repos/octo/hello"}},
			wantMethod: "GET", wantPath: "/repos/octo/hello",
			infs: []Inference{{routePointer, "one path only (2 answers): nothing shows which segments are arguments, every segment is literal"}}},
		{name: "ambiguous", why: "the most frequent shape wins and the choice is an inference",
			reqs:       []request{{"GET", "/a/1"}, {"POST", "/a/2"}, {"GET", "/a/3"}, {"GET", "/a/3/x"}},
			wantMethod: "GET", wantPath: "/a/{a}",
			infs: []Inference{{routePointer, "ambiguous: the answers have 3 request shapes; the route is the most frequent, GET with 2 path segments (2 of 4 answers), the other answers got a Note"}}},
		{name: "tie", why: "on a tie the shape seen first wins",
			reqs:       []request{{"POST", "/x"}, {"GET", "/y/z"}},
			wantMethod: "POST", wantPath: "/x"},
		{name: "nothing", why: "no answer, no route",
			infs: []Inference{{routePointer, "no answer recorded: no route to infer"}}},
		{name: "no path decodes", why: "a path that does not decode has no segments to compare",
			reqs: []request{{"GET", "/a%zz"}},
			infs: []Inference{{routePointer, "no answer recorded: no route to infer"}}},
	}
}

func TestInferRoute(t *testing.T) {
	for _, c := range routeCases() {
		t.Run(c.name, func(t *testing.T) {
			rt, infs := inferRoute(c.reqs)
			var method, path string
			if rt != nil {
				method, path = rt.method, rt.path()
			}
			if method != c.wantMethod || path != c.wantPath {
				t.Errorf("route %s %s, want %s %s (%s)", method, path, c.wantMethod, c.wantPath, c.why)
			}
			for _, want := range c.infs {
				if !containsInference(infs, want) {
					t.Errorf("missing %+v in %+v (%s)", want, infs, c.why)
				}
			}
		})
	}
}

// containsInference reports whether infs holds want.
func containsInference(infs []Inference, want Inference) bool {
	for _, inf := range infs {
		if inf == want {
			return true
		}
	}
	return false
}

func TestParseRoute(t *testing.T) {
	cases := []struct {
		route, why string
		ok         bool
		path       string
	}{
		{"GET /repos/{owner}/{repo}/pulls/{n}/reviews", "the binding's own form", true, "/repos/{owner}/{repo}/pulls/{n}/reviews"},
		{"GET /", "the root", true, "/"},
		{"GET /a%20b/{x}", "a literal is decoded and escaped back", true, "/a%20b/{x}"},
		{"GET repos/{x}", "the path starts with /", false, ""},
		{"/repos/{x}", "a method is needed", false, ""},
		{"GET /a/{x}/{x}", "argument names are unique", false, ""},
		{"GET /a/{1x}", "argument names are identifiers", false, ""},
		{"GET /a/x{y}", "an argument is a whole segment", false, ""},
		{"GET /a/%zz", "the path decodes", false, ""},
	}
	for _, c := range cases {
		rt, err := parseRoute(c.route)
		if (err == nil) != c.ok {
			t.Errorf("parseRoute(%q): %v, want ok %v (%s)", c.route, err, c.ok, c.why)
			continue
		}
		if c.ok && rt.path() != c.path {
			t.Errorf("parseRoute(%q).path() = %q, want %q (%s)", c.route, rt.path(), c.path, c.why)
		}
	}
}

func TestRouteMatch(t *testing.T) {
	rt, err := parseRoute("GET /repos/{owner}/{repo}/pulls/{n}/reviews")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		method, path, why string
		want              map[string]string
	}{
		{"GET", "/repos/octo/hello/pulls/1347/reviews", "all literals equal", map[string]string{"owner": "octo", "repo": "hello", "n": "1347"}},
		{"GET", "/repos/octo/he%2Fllo/pulls/1/reviews", "arguments are decoded, %2F stays in its segment", map[string]string{"owner": "octo", "repo": "he/llo", "n": "1"}},
		{"POST", "/repos/octo/hello/pulls/1347/reviews", "the method differs", nil},
		{"GET", "/repos/octo/hello/pulls/1347/comments", "a literal differs", nil},
		{"GET", "/repos/octo/hello/pulls/1347/reviews/", "a trailing slash is one more segment", nil},
		{"GET", "/repos/octo//pulls/1347/reviews", "an argument is never empty", nil},
	}
	for _, c := range cases {
		got, ok := rt.match(c.method, c.path)
		if ok != (c.want != nil) {
			t.Errorf("match(%s %s) ok %v (%s)", c.method, c.path, ok, c.why)
		}
		if diff := cmp.Diff(c.want, got); ok && diff != "" {
			t.Errorf("match(%s %s) (-want +got) (%s):\n%s", c.method, c.path, c.why, diff)
		}
	}
}
