package reports

import (
	"fmt"
	"io"
	"testing"
)

// bigResult is a run the size of the built-in one: 109 scenarios, four of
// them with 600 generated cases each, one case in a hundred failed.
func bigResult() *Result {
	r := sample()
	base := r.Scenarios[0]
	r.Scenarios = nil
	for i := range 109 {
		sc := base
		sc.ID, sc.Name = fmt.Sprintf("features/f%d.feature: scenario %d", i%14, i), fmt.Sprintf("scenario %d", i)
		sc.Feature = fmt.Sprintf("features/f%d.feature", i%14)
		if i < 4 {
			for j := range 600 {
				c := Case{ID: fmt.Sprintf("tool%d/example/op%d/field%d", i, j%60, j), Tool: fmt.Sprintf("tool%d", i),
					Operator: fmt.Sprintf("op%d", j%60), Field: fmt.Sprintf("/f%d", j%7), Status: Passed, Reproducer: "toolcert run --case x --seed 1"}
				if j%100 == 0 {
					c.Status = Failed
					c.Evidence = []Evidence{{Kind: EvidenceMismatch, Message: "the agent saw success", Diff: "-failure\n+success"}}
					sc.Status = Failed
				}
				sc.Cases = append(sc.Cases, c)
			}
		}
		r.Scenarios = append(r.Scenarios, sc)
	}
	ops := make([]string, 60)
	for i := range ops {
		ops[i] = fmt.Sprintf("op%d", i)
	}
	r.Coverage = BuildCoverage(r.Scenarios, ops)
	r.Tally()
	return r
}

// BenchmarkRender renders a built-in-sized run in every format.
func BenchmarkRender(b *testing.B) {
	r := bigResult()
	for _, name := range FormatNames() {
		f := Formats()[name]
		b.Run(name, func(b *testing.B) {
			var n countingWriter
			for b.Loop() {
				n = 0
				if err := f.Render(&n, r); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}

// countingWriter counts what is written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}

var _ io.Writer = (*countingWriter)(nil)
