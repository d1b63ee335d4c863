package steps

import (
	"fmt"
	"strings"

	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/reports"
)

// scanLeaks searches the agent-visible output for every canary the
// scenario planted, once per scenario, and records each hit as evidence.
func (w *world) scanLeaks() []canary.Leak {
	if len(w.calls) == 0 || w.scanned {
		return nil
	}
	w.scanned = true
	var parts []canary.Part
	for i, c := range w.calls {
		for _, p := range c.Out.Parts {
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

// leakError says how many canaries reached the agent, the first one on
// its first line (the line a progress report prints), the rest after it.
func leakError(leaks []canary.Leak) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d canary hit(s) in the agent-visible output, the first: %s", len(leaks), leaks[0])
	for _, l := range leaks[1:] {
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
