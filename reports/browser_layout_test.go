package reports_test

import (
	"strings"
	"testing"

	"github.com/toolcert/toolcert/reports/internal/browsertest"
)

// browserFirstScreen is where the verdict and the first failure sit.
type browserFirstScreen struct {
	Verdict      string  `json:"verdict"`
	VerdictTop   float64 `json:"verdictTop"`
	VerdictBot   float64 `json:"verdictBottom"`
	Failure      string  `json:"failure"`
	FailureTop   float64 `json:"failureTop"`
	Height       float64 `json:"height"`
	ScrollWidth  float64 `json:"scrollWidth"`
	ClientWidth  float64 `json:"clientWidth"`
	ScrollHeight float64 `json:"scrollHeight"`
}

const browserFirstScreenScript = `(() => {
	const v = document.querySelector(".verdict"), f = document.querySelector("details.scenario.failed > summary");
	const vr = v.getBoundingClientRect(), fr = f ? f.getBoundingClientRect() : {top: -1};
	const de = document.documentElement;
	return {verdict: v.innerText, verdictTop: vr.top, verdictBottom: vr.bottom,
		failure: f ? f.innerText : "", failureTop: fr.top, height: innerHeight,
		scrollWidth: de.scrollWidth, clientWidth: de.clientWidth, scrollHeight: de.scrollHeight};
})()`

// testBrowserFirstScreen loads a realistic failed run, takes its
// screenshot, and checks that a person sees the verdict without scrolling,
// the first failure after one scroll at most, and no sideways scroll.
func testBrowserFirstScreen(t *testing.T, b *browsertest.Browser) {
	u := writeBrowserReport(t, browserRealisticResult())
	p, err := b.Open(u)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Screenshot("report.png"); err != nil {
		t.Error(err)
	}
	s, err := browsertest.Evaluate[browserFirstScreen](p, browserFirstScreenScript)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("first screen: %+v", s)
	if !strings.HasPrefix(s.Verdict, "FAILED") || s.VerdictTop < 0 || s.VerdictBot > s.Height {
		t.Errorf("verdict %q at %.0f..%.0f px, want FAILED within the first %.0f px", s.Verdict, s.VerdictTop, s.VerdictBot, s.Height)
	}
	// One scroll at most: the failure comes after the header, the summary
	// and the not-applicable list.
	if !strings.Contains(s.Failure, "no canary planted") || s.FailureTop < 0 || s.FailureTop > 2*s.Height {
		t.Errorf("first failure %q at %.0f px, want the leak scenario within the first %.0f px", s.Failure, s.FailureTop, 2*s.Height)
	}
	if s.ScrollWidth > s.ClientWidth {
		t.Errorf("page is %.0f px wide in a %.0f px window: it scrolls sideways", s.ScrollWidth, s.ClientWidth)
	}
}
