package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/toolcert/toolcert/reports"
)

// writeBaseline writes the failures of res to path as a baseline, whole or
// not at all.
func writeBaseline(path string, res *reports.Result) error {
	b, err := json.MarshalIndent(reports.BaselineOf(res), "", "  ")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".baseline-*")
	if err != nil {
		return fmt.Errorf("write baseline: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write baseline: %w", werr)
	}
	return nil
}

// summarizeBaseline prints what the baseline explained, when one applied.
func summarizeBaseline(w io.Writer, res *reports.Result) {
	s := res.Summary
	if s.ExpectedFailures+s.CasesExpected+s.UnexpectedPasses+len(res.BaselineUnmatched) == 0 {
		return
	}
	fmt.Fprintf(w, "baseline: %d expected failures (%d scenarios, %d cases), %d unexpected passes, %d entries not reached\n",
		s.ExpectedFailures+s.CasesExpected, s.ExpectedFailures, s.CasesExpected, s.UnexpectedPasses, len(res.BaselineUnmatched))
	for _, id := range first(res.BaselineUnmatched, 5) {
		fmt.Fprintf(w, "  not reached: %s\n", id)
	}
}

// statusOf is a scenario's status as the summary prints it, with its
// baseline mark.
func statusOf(sc reports.Scenario) string {
	switch sc.Baseline {
	case reports.ExpectedFailure:
		return "expected failure"
	case reports.UnexpectedPass:
		return "UNEXPECTED PASS (remove it from the baseline)"
	}
	return string(sc.Status)
}
