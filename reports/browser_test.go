package reports_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/reports/internal/browsertest"
)

// browserBudget bounds the whole browser test: start, every page, stop.
// Alone it takes 10 to 20 s; under `go test ./...` on two cores, with the
// other packages' tests beside it, it has needed more than 25 s.
const browserBudget = 120 * time.Second

// TestHTMLInBrowser opens report.html in a headless Chromium from a file://
// URL, as a person opens it, and checks what no parse of the page's text
// can: that hostile text in every field runs no script, opens no dialog and
// fetches nothing, with and without the page's Content-Security-Policy;
// that the person sees that text as text; that the policy blocks what it
// should; and that a person finds the verdict on the first screen and the
// first failure within one scroll. It skips without a browser unless
// TOOLCERT_REQUIRE_BROWSER=1.
func TestHTMLInBrowser(t *testing.T) {
	b := browsertest.New(t, browserBudget)
	t.Run("hostile text is inert", func(t *testing.T) { testBrowserHostile(t, b, false) })
	t.Run("hostile text is inert without the CSP", func(t *testing.T) { testBrowserHostile(t, b, true) })
	t.Run("the CSP blocks planted markup", func(t *testing.T) { testBrowserPlanted(t, b) })
	t.Run("verdict and first failure up front", func(t *testing.T) { testBrowserFirstScreen(t, b) })
}

// testBrowserHostile loads the hostile report and checks that it did
// nothing but load, that its DOM holds only the template's elements, and
// that every hostile text shows as text in every field.
func testBrowserHostile(t *testing.T, b *browsertest.Browser, bypassCSP bool) {
	sink := newBrowserSink(t)
	hs := browserHostiles(sink.URL)
	u := writeBrowserReport(t, browserHostileResult(hs, sink.URL))
	var opts []browsertest.Option
	if bypassCSP {
		opts = append(opts, browsertest.WithoutCSP())
	}
	p, err := b.Open(u, opts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range p.Record().Quiet(u) {
		t.Errorf("the page did more than load: %s", line)
	}
	if hits := sink.Hits(); len(hits) > 0 {
		t.Errorf("the sink was reached: %v", hits)
	}
	checkBrowserDOM(t, p, u)
	checkBrowserTexts(t, p, hs)
	checkBrowserInvisible(t, p)
	if !bypassCSP {
		checkBrowserCSP(t, p)
		if _, err := p.Screenshot("report-hostile.png"); err != nil {
			t.Error(err)
		}
		// Layout is not this test's to fail on; say what a person meets.
		if s, err := browsertest.Evaluate[browserFirstScreen](p, browserFirstScreenScript); err == nil {
			t.Logf("hostile page: %.0f x %.0f px in a %.0f px wide window", s.ScrollWidth, s.ScrollHeight, s.ClientWidth)
		}
	}
}

// browserDOM is what the page's DOM holds after load.
type browserDOM struct {
	Tags     []string `json:"tags"`
	Attrs    []string `json:"attrs"`
	Hrefs    []string `json:"hrefs"`
	Pwned    string   `json:"pwned"`
	Location string   `json:"location"`
}

const browserDOMScript = `(() => {
	const tags = new Set(), attrs = new Set(), hrefs = [];
	for (const e of document.querySelectorAll("*")) {
		tags.add(e.localName);
		for (const a of e.attributes) attrs.add(a.name);
		if (e.hasAttribute("href")) hrefs.push(e.getAttribute("href"));
	}
	return {tags: [...tags].sort(), attrs: [...attrs].sort(), hrefs, pwned: typeof window.toolcertPwned,
		location: location.href};
})()`

// checkBrowserDOM checks that no payload set its global, that the page is
// still the one loaded, that every element and attribute is one the
// template writes (the parser adds tbody), and that no link runs script.
func checkBrowserDOM(t *testing.T, p *browsertest.Page, u string) {
	t.Helper()
	dom, err := browsertest.Evaluate[browserDOM](p, browserDOMScript)
	if err != nil {
		t.Fatal(err)
	}
	if dom.Pwned != "undefined" {
		t.Errorf("window.toolcertPwned is %s: a payload ran", dom.Pwned)
	}
	if dom.Location != u {
		t.Errorf("the page moved to %s", dom.Location)
	}
	tags, attrs := templateVocabulary(t)
	for _, tag := range dom.Tags {
		if !slices.Contains(tags, tag) && tag != "tbody" {
			t.Errorf("the DOM holds a <%s>, which the template never writes", tag)
		}
	}
	for _, a := range dom.Attrs {
		if !slices.Contains(attrs, a) {
			t.Errorf("the DOM holds an attribute %s, which the template never writes", a)
		}
	}
	for _, h := range dom.Hrefs {
		if scheme, _, ok := strings.Cut(strings.ToLower(strings.TrimSpace(h)), ":"); ok && scheme != "http" && scheme != "https" {
			t.Errorf("a link goes to %.80q: a click would run or load it", h)
		}
	}
}

var (
	templateTagRE    = regexp.MustCompile(`<([a-z][a-z0-9]*)([^<>]*)>`)
	templateQuotedRE = regexp.MustCompile(`"[^"]*"`)
	templateAttrRE   = regexp.MustCompile(`\s([a-z][a-z-]*)(?:=|[\s{>]|$)`)
)

// templateVocabulary reads html.tmpl and returns the elements and the
// attributes it writes: the only ones the page may hold. Anything else in
// the DOM was injected.
func templateVocabulary(t *testing.T) (tags, attrs []string) {
	t.Helper()
	src, err := os.ReadFile("html.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range templateTagRE.FindAllStringSubmatch(string(src), -1) {
		tags = append(tags, m[1])
		for _, a := range templateAttrRE.FindAllStringSubmatch(templateQuotedRE.ReplaceAllString(m[2], `""`), -1) {
			attrs = append(attrs, a[1])
		}
	}
	slices.Sort(tags)
	slices.Sort(attrs)
	return slices.Compact(tags), slices.Compact(attrs)
}

// browserFields are the places a hostile text shows on the page, each a
// CSS selector of the elements whose innerText must hold it.
var browserFields = []struct{ field, selector string }{
	{"title", "title"},
	{"target", "dl.run dd"},
	{"baseline IDs not reached", "table.counts code"},
	{"feature", "details.feature > summary"},
	{"scenario name", "details.scenario > summary"},
	{"scenario ID", "details.scenario > p.meta > code"},
	{"tag", "span.tag"},
	{"scenario error", "details.scenario > pre.error"},
	{"step keyword", "table.steps td.kw"},
	{"step text", "table.steps td:nth-child(2)"},
	{"step error", "table.steps pre.error"},
	{"evidence message", "ul.evidence span.msg"},
	{"evidence canary, planted, surfaced, encoding", "dl.canary dd"},
	{"evidence diff", "pre.diff"},
	{"case ID", "div.case > code"},
	{"case operator, tool, field", "div.case > span.meta"},
	{"reproducer", "code.repro"},
	{"coverage operator", "table.matrix th"},
	{"control", "table.controls td"},
}

// checkBrowserTexts reads the innerText of every field's elements and
// checks that each hostile text's words show in each field, in order.
func checkBrowserTexts(t *testing.T, p *browsertest.Page, hs []browserHostile) {
	t.Helper()
	texts := readBrowserTexts(t, p)
	for _, f := range browserFields {
		for i, h := range hs {
			if (f.field == "title" || f.field == "target") && i > 0 {
				continue // the target holds the first text only
			}
			if !slices.ContainsFunc(texts[f.selector], func(s string) bool { return containsInOrder(s, h.words) }) {
				t.Errorf("%s: %s does not show its words %.120q; the page shows %.300q", f.field, h.name, h.words, texts[f.selector])
			}
		}
	}
}

// containsInOrder reports whether s holds every word, one after the other.
func containsInOrder(s string, words []string) bool {
	for _, w := range words {
		i := strings.Index(s, w)
		if i < 0 {
			return false
		}
		s = s[i+len(w):]
	}
	return true
}

// browserInvisibleScript finds, in the text of the whole document (title
// included), the characters no page may show raw: C0 and C1 controls but
// tab, newline and carriage return; bidi embeddings, overrides, isolates
// and marks; zero-width characters; line and paragraph separators.
const browserInvisibleScript = `(() => {
	const bad = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2069\uFEFF]/gu;
	return Array.from(document.documentElement.textContent.matchAll(bad),
		m => "U+" + m[0].codePointAt(0).toString(16).toUpperCase().padStart(4, "0"));
})()`

// checkBrowserInvisible checks that no character that could reorder, hide
// or recolor text reached the page's text.
func checkBrowserInvisible(t *testing.T, p *browsertest.Page) {
	t.Helper()
	found, err := browsertest.Evaluate[[]string](p, browserInvisibleScript)
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		slices.Sort(found)
		t.Errorf("the page's text holds %d raw invisible or control characters: %v", len(found), slices.Compact(found))
	}
}

// readBrowserTexts returns, per selector of browserFields, the innerText
// of every element it selects (the title's text for "title").
func readBrowserTexts(t *testing.T, p *browsertest.Page) map[string][]string {
	t.Helper()
	var sels []string
	for _, f := range browserFields {
		sels = append(sels, f.selector)
	}
	js, err := json.Marshal(sels)
	if err != nil {
		t.Fatal(err)
	}
	texts, err := browsertest.Evaluate[map[string][]string](p, fmt.Sprintf(`Object.fromEntries(%s.map(s =>
		[s, Array.from(document.querySelectorAll(s), e => s === "title" ? e.text : e.innerText)]))`, js))
	if err != nil {
		t.Fatal(err)
	}
	return texts
}

// writeBrowserReport renders r as report.html in a temporary folder and
// returns its file:// URL.
func writeBrowserReport(t *testing.T, r *reports.Result) string {
	t.Helper()
	var buf bytes.Buffer
	if err := reports.HTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	return writeBrowserPage(t, buf.Bytes())
}

// writeBrowserPage writes page as report.html in a temporary folder and
// returns its file:// URL.
func writeBrowserPage(t *testing.T, page []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

// browserSink is a loopback server that records every request it gets:
// hostile text points every fetch at it, so a fetch that slipped past the
// browser's own record shows up here too.
type browserSink struct {
	URL  string
	mu   sync.Mutex
	hits []string
}

// newBrowserSink starts a sink on 127.0.0.1 for t, closed when t ends.
func newBrowserSink(t *testing.T) *browserSink {
	s := &browserSink{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits = append(s.hits, r.URL.Path)
		s.mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Hits returns the paths the sink was asked for so far.
func (s *browserSink) Hits() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.hits)
}
