package reports_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/toolcert/toolcert/reports"
)

// browserHostile is one piece of text an adapter may send, and what a
// person must see of it on the page: its words, as text, in order. Markup
// shows whole, as written; around the characters that could reorder, hide
// or recolor text (control characters, ANSI and OSC escapes, bidi
// controls, zero-width characters, NUL, invalid UTF-8) the page may show
// any marker (U+FFFD, a \uNNNN escape) or none, as long as the character
// itself is gone: [checkBrowserInvisible] checks that. The markup payloads
// call the page's canary and set toolcertPwned, so that any of them that
// runs is seen.
type browserHostile struct {
	name, text string
	words      []string
}

// browserHostiles are the texts the browser test puts in every field of
// the model; sink is the loopback URL that any fetch they make would hit.
func browserHostiles(sink string) []browserHostile {
	same := func(name, text string) browserHostile { return browserHostile{name, text, []string{text}} }
	return []browserHostile{
		same("script", `<script>window.toolcertPwned="script";toolcertCanary("script");alert("script")</script>`),
		same("breakout", `</code></pre></span></td></tr></table></details></li></ul></main><script>toolcertCanary("breakout")</script><!--`),
		same("img onerror", `<img src="`+sink+`/img" onerror="window.toolcertPwned='img';toolcertCanary('img')">`),
		same("svg onload", `<svg onload="toolcertCanary('svg')"><script>toolcertCanary('svg-script')</script></svg>`),
		same("javascript url", `<a href="javascript:toolcertCanary('href')">open</a> javascript:toolcertCanary('bare')`),
		same("iframe", `<iframe src="`+sink+`/iframe" srcdoc="<script>parent.toolcertCanary('srcdoc')</script>"></iframe>`),
		same("css url", `<div style="background:url(`+sink+`/css)">x</div><style>@import "`+sink+`/import";body{background:url(`+sink+`/style)}</style>`),
		same("meta refresh", `<meta http-equiv="refresh" content="0;url=`+sink+`/refresh">`),
		same("base and form", `<base href="`+sink+`/base/"><form action="`+sink+`/form"><button formaction="`+sink+`/button">go</button></form>`),
		same("link and object", `<link rel="stylesheet" href="`+sink+`/link"><object data="`+sink+`/object"></object><embed src="`+sink+`/embed">`),
		same("entities", `&lt;script&gt;toolcertCanary("entity")&lt;/script&gt; &amp;amp; &#60;b&#62;`),
		same("template syntax", `{{.}} {{template "x"}} ${toolcertCanary("tpl")} <%= 1 %>`),
		{"bidi", "invoice\u202Etxt.exe \u2066isolate\u2069 \u202Bembed\u202C", []string{"invoice", "txt.exe ", "isolate", " ", "embed"}},
		{"zero width and marks", "a\u200Bb\u200Ec\u200Fd\u061Ce\uFEFFf\u2028g", []string{"a", "b", "c", "d", "e", "f", "g"}},
		{"ansi csi", "\x1b[2J\x1b[H\x1b[31mred\x1b[0m", []string{"red"}},
		{"osc 0 title", "\x1b]0;pwned title\x07after", []string{"after"}},
		{"osc 52 clipboard", "\x1b]52;c;dG9vbGNlcnQ=\x07tail", []string{"tail"}},
		{"nul and c1", "a\x00b\u0085c\x7fd", []string{"a", "b", "c", "d"}},
		{"invalid utf-8", "bad\xff\xfebytes", []string{"bad", "bytes"}},
		same("long line", "L"+strings.Repeat("0123456789", 2000)+"end"),
	}
}

// browserHostileResult is a failed run with one failed scenario per hostile
// text, that text in every field the page shows of the scenario, its step,
// evidence and generated case; and in the target, the coverage matrix, the
// baseline IDs the run did not reach and the controls, whose links point
// at javascript:, data: and the sink.
func browserHostileResult(hs []browserHostile, sink string) *reports.Result {
	r := &reports.Result{
		Tool: "toolcert", Version: "test", Seed: 7, Target: hs[0].text,
		StartedAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Duration: reports.Duration(time.Second),
	}
	for i, h := range hs {
		r.Scenarios = append(r.Scenarios, browserHostileScenario(i, h.text))
		r.BaselineUnmatched = append(r.BaselineUnmatched, h.text)
		r.Coverage = append(r.Coverage, reports.Cell{Operator: h.text, Tool: "tool", Field: "/f", Status: reports.CellFailed, Cases: 1})
		links := []string{`javascript:toolcertCanary("control")`, `data:text/html,<script>toolcertCanary("data")</script>`, sink + "/control"}
		r.Controls = append(r.Controls, reports.ControlResult{
			Control: reports.Control{ID: h.text, Title: h.text, Source: h.text, URL: links[i%len(links)]},
			Status:  reports.ControlViolated, Failed: 1,
			Violations: []reports.ControlRef{{Scenario: h.text, Case: h.text}},
		})
	}
	r.Tally()
	return r
}

// browserHostileScenario is the failed scenario i with text in each of its
// fields.
func browserHostileScenario(i int, text string) reports.Scenario {
	ev := []reports.Evidence{{
		Kind: reports.EvidenceLeak, Message: text, Canary: text, Planted: text, Surfaced: text, Encoding: text,
		Diff: "-" + text + "\n+" + text + "\n",
	}}
	return reports.Scenario{
		ID: text, Feature: text, Name: text, Tags: []string{text}, Status: reports.Failed,
		Duration: reports.Duration(time.Millisecond), Lane: i + 1, Error: text,
		Steps:    []reports.Step{{Keyword: text, Text: text, Status: reports.Failed, Error: text}},
		Evidence: ev,
		Cases: []reports.Case{{
			ID: text, Tool: text, Operator: text, Field: text, Status: reports.Failed,
			Evidence: ev, Reproducer: text,
		}},
	}
}

// browserRealisticResult is a run as a person meets it: 48 scenarios in 12
// features, most passing, two not applicable, and one failure (a leak, with
// two failed generated cases) in the ninth feature, after eight features
// that passed.
func browserRealisticResult() *reports.Result {
	r := &reports.Result{
		Tool: "toolcert", Version: "v0.9.0", Seed: 1764576000, Target: "process ./bin/github-adapter --listen 127.0.0.1:0",
		StartedAt: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), Duration: reports.Duration(41 * time.Second),
	}
	for f := range 12 {
		for s := range 4 {
			r.Scenarios = append(r.Scenarios, browserPassed(f, s))
		}
	}
	r.Scenarios[5].Status, r.Scenarios[5].Error = reports.NotApplicable, "not applicable: the target writes no audit log"
	r.Scenarios[22].Status, r.Scenarios[22].Error = reports.NotApplicable, "not applicable: the target has no approvals"
	r.Scenarios[33] = browserLeak(r.Scenarios[33])
	r.Summary.UpstreamRequests = 311
	r.Tally()
	return r
}

// browserPassed is the passing scenario s of feature f.
func browserPassed(f, s int) reports.Scenario {
	feature := fmt.Sprintf("features/concern_%02d.feature", f+1)
	return reports.Scenario{
		ID: fmt.Sprintf("%s:%d", feature, 3+s*9), Feature: feature, Status: reports.Passed,
		Name:     fmt.Sprintf("the adapter keeps boundary %d of concern %d", s+1, f+1),
		Duration: reports.Duration(time.Duration(20+s) * time.Millisecond), Lane: s%2 + 1,
		Steps: []reports.Step{
			{Keyword: "Given", Text: `the upstream answers "run_status" with the accepted example`, Status: reports.Passed},
			{Keyword: "When", Text: `the agent calls "run_status"`, Status: reports.Passed},
			{Keyword: "Then", Text: "the agent sees the declared fields only", Status: reports.Passed},
		},
	}
}

// browserLeak turns sc into a failed leak scenario with two failed cases
// among forty.
func browserLeak(sc reports.Scenario) reports.Scenario {
	sc.Name, sc.Status = `no canary planted in "run_status" reaches the agent`, reports.Failed
	sc.Error = "canary tc_9f2 surfaced in the agent-visible body"
	sc.Steps[2] = reports.Step{Keyword: "Then", Text: "no canary reaches the agent", Status: reports.Failed, Error: sc.Error}
	sc.Evidence = []reports.Evidence{{Kind: reports.EvidenceLeak, Message: "canary tc_9f2 planted in body /message surfaced in body as base64",
		Canary: "tc_9f2", Planted: "body /message", Surfaced: "body", Encoding: "base64"}}
	for i := range 40 {
		c := reports.Case{ID: fmt.Sprintf("run_status/ok/op%02d/message", i), Tool: "run_status", Operator: fmt.Sprintf("op%02d", i),
			Field: "/message", Status: reports.Passed, Reproducer: fmt.Sprintf("toolcert run --case run_status/ok/op%02d/message --seed 1764576000", i)}
		if i == 7 || i == 21 {
			c.Status = reports.Failed
			c.Evidence = []reports.Evidence{{Kind: reports.EvidenceMismatch, Message: "the agent saw the raw upstream message",
				Diff: "-{\"message\": \"[redacted]\"}\n+{\"message\": \"dGNfOWYy\"}\n"}}
		}
		sc.Cases = append(sc.Cases, c)
	}
	return sc
}
