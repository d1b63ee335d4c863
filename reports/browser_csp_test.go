package reports_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/reports/internal/browsertest"
)

// checkBrowserCSP reads the policy the page declares and checks it: no
// script, no fetch of any kind, no base, no form target, and declared
// before the first model text (the title).
func checkBrowserCSP(t *testing.T, p *browsertest.Page) {
	t.Helper()
	got, err := browsertest.Evaluate[[]string](p, `(() => {
		const m = document.querySelector('head > meta[http-equiv="Content-Security-Policy" i]');
		const kids = Array.from(document.head.children);
		return m ? [m.content, String(kids.indexOf(m) < kids.indexOf(document.querySelector("title")))] : [];
	})()`)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatal("the page declares no Content-Security-Policy")
	}
	if got[1] != "true" {
		t.Error("the Content-Security-Policy comes after the title: model text precedes it")
	}
	dirs := map[string]string{}
	for d := range strings.SplitSeq(got[0], ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		dirs[name] = value
	}
	for name, want := range map[string]string{"default-src": "'none'", "base-uri": "'none'", "form-action": "'none'"} {
		if dirs[name] != want {
			t.Errorf("CSP %s is %q, want %q (policy %q)", name, dirs[name], want, got[0])
		}
	}
	for name, value := range dirs {
		if strings.HasPrefix(name, "script-src") || strings.ContainsAny(value, "*:") {
			t.Errorf("CSP %s %s lets something load or run (policy %q)", name, value, got[0])
		}
	}
}

// browserPlanted is markup planted in the page unescaped, as a renderer
// bug would leave it, and how the browser shows that it acted.
type browserPlanted struct {
	name string
	// markup is the planted markup; fetches go to the sink at sink.
	markup func(sink string) string
	// acted reports whether the markup did what it was planted for: the
	// page's record, and the paths the sink served (a request the CSP
	// blocks is still announced to the recorder, but never reaches the
	// sink).
	acted func(r browsertest.Record, hits []string) bool
	// cspBlocks says the page's policy stops it; a meta refresh is a
	// navigation, which no CSP directive governs: only escaping stops it.
	cspBlocks bool
}

// browserPlants are the planted markups and how each shows that it acted.
func browserPlants() []browserPlanted {
	ran := func(r browsertest.Record, _ []string) bool { return len(r.Canary) > 0 }
	dialog := func(r browsertest.Record, _ []string) bool { return len(r.Dialogs) > 0 }
	fetched := func(path string) func(browsertest.Record, []string) bool {
		return func(_ browsertest.Record, hits []string) bool { return slices.Contains(hits, path) }
	}
	return []browserPlanted{
		{"inline script", func(string) string { return `<script>toolcertCanary("planted")</script>` }, ran, true},
		{"alert", func(string) string { return `<script>alert("planted")</script>` }, dialog, true},
		{"img onerror", func(s string) string { return `<img src="` + s + `/img" onerror="toolcertCanary('img')">` }, fetched("/img"), true},
		{"css url", func(s string) string { return `<p style="background:url(` + s + `/css)">x</p>` }, fetched("/css"), true},
		{"iframe", func(s string) string { return `<iframe src="` + s + `/frame"></iframe>` }, fetched("/frame"), true},
		{"meta refresh", func(s string) string { return `<meta http-equiv="refresh" content="0;url=` + s + `/refresh">` }, fetched("/refresh"), false},
	}
}

// testBrowserPlanted shows that the test can fail: markup planted in a
// report is caught without the CSP, and blocked, with a violation
// recorded, with it; except a meta refresh, which no CSP stops.
func testBrowserPlanted(t *testing.T, b *browsertest.Browser) {
	for _, pl := range browserPlants() {
		t.Run(pl.name, func(t *testing.T) {
			t.Parallel()
			if r, hits, ok := openPlanted(t, b, pl, pl.acted, browsertest.WithoutCSP()); !ok {
				t.Errorf("without the CSP the planted markup went unseen: %+v, sink %v", r, hits)
			}
			if !pl.cspBlocks {
				if r, hits, ok := openPlanted(t, b, pl, pl.acted); !ok {
					t.Errorf("expected the CSP not to stop %s (only escaping does); it did: %+v, sink %v", pl.name, r, hits)
				}
				return
			}
			violated := func(r browsertest.Record, _ []string) bool { return len(r.Violations) > 0 }
			r, hits, ok := openPlanted(t, b, pl, violated)
			if !ok {
				t.Errorf("the CSP blocked it but no violation was recorded: %+v", r)
			}
			if pl.acted(r, hits) {
				t.Errorf("the CSP let planted markup act: %+v, sink %v", r, hits)
			}
		})
	}
}

// openPlanted loads a report with pl planted in it, its fetches aimed at a
// sink of its own, and waits up to two seconds for until to hold.
func openPlanted(t *testing.T, b *browsertest.Browser, pl browserPlanted, until func(browsertest.Record, []string) bool,
	opts ...browsertest.Option) (browsertest.Record, []string, bool) {
	t.Helper()
	sink := newBrowserSink(t)
	p, err := b.Open(writeBrowserPage(t, plantInReport(t, pl.markup(sink.URL))), opts...)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		r, hits := p.Record(), sink.Hits()
		if ok := until(r, hits); ok || time.Now().After(deadline) {
			return r, hits, ok
		}
	}
}

// plantInReport renders a plain report and puts markup, unescaped, at the
// start of its main element.
func plantInReport(t *testing.T, markup string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := reports.HTML(&buf, browserRealisticResult()); err != nil {
		t.Fatal(err)
	}
	page := strings.Replace(buf.String(), "<main>", "<main>"+markup, 1)
	if !strings.Contains(page, markup) {
		t.Fatal("no <main> to plant markup in")
	}
	return []byte(page)
}
