package steps

import (
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/target"
)

// OutputParts splits what the agent saw into the parts the leak scan
// searches: the status line, every header and trailer (name and values),
// the body.
func OutputParts(out target.Output) []canary.Part {
	parts := []canary.Part{{Where: "status line", Data: []byte(out.StatusLine)}}
	parts = append(parts, headerParts("header", out.Header)...)
	parts = append(parts, headerParts("trailer", out.Trailer)...)
	return append(parts, canary.Part{Where: "body", Data: out.Body})
}

func headerParts(kind string, h http.Header) []canary.Part {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]canary.Part, 0, len(names))
	for _, name := range names {
		line := name + ": " + strings.Join(h[name], ", ")
		parts = append(parts, canary.Part{Where: kind + " " + name, Data: []byte(line)})
	}
	return parts
}

// scanLeaks searches the agent-visible output for every canary the
// scenario planted, once per scenario, and records each hit as evidence.
func (w *world) scanLeaks() []canary.Leak {
	if len(w.calls) == 0 || w.scanned {
		return nil
	}
	w.scanned = true
	var parts []canary.Part
	for i, c := range w.calls {
		for _, p := range OutputParts(c.out) {
			if len(w.calls) > 1 {
				p.Where = fmt.Sprintf("call %d %s", i+1, p.Where)
			}
			parts = append(parts, p)
		}
	}
	leaks := canary.Scan(parts, w.canaries.All())
	for _, l := range leaks {
		w.evidence = append(w.evidence, reports.Evidence{
			Kind: reports.EvidenceLeak, Message: l.String(),
			Canary: l.Token, Planted: l.Planted, Surfaced: l.Surfaced, Encoding: l.Encoding,
		})
	}
	return leaks
}

func leakError(leaks []canary.Leak) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d canary hit(s) in the agent-visible output:", len(leaks))
	for _, l := range leaks {
		b.WriteString("\n  " + l.String())
	}
	return fmt.Errorf("%s", b.String())
}

func (w *world) noCanary() error {
	if _, err := w.mustCall(); err != nil {
		return err
	}
	if len(w.canaries.All()) == 0 {
		return fmt.Errorf("no canary was planted in this scenario, so the check would prove nothing")
	}
	if w.scanned {
		return w.leakedBefore()
	}
	if leaks := w.scanLeaks(); len(leaks) > 0 {
		return leakError(leaks)
	}
	return nil
}

func (w *world) leakedBefore() error {
	for _, e := range w.evidence {
		if e.Kind == reports.EvidenceLeak {
			return fmt.Errorf("canaries reached the agent (see evidence)")
		}
	}
	return nil
}

// leakSteps registers the Then step that scans for every planted canary.
func leakSteps(r *registrar) {
	r.assert(`^no canary reaches the agent$`, on((*world).noCanary))
}
