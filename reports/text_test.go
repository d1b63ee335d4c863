package reports

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTextGolden(t *testing.T) {
	tests := []struct {
		name string
		why  string
		res  func() *Result
		opts TextOptions
	}{
		{
			name: "quiet",
			why:  "no coverage and no files: the failures, the skip and the counts",
			res:  sample,
		},
		{
			name: "full",
			why:  "the coverage matrix, the optional counts and the files written, in that order",
			res: func() *Result {
				r := sample()
				r.Coverage = BuildCoverage(r.Scenarios, []string{"extra_property", "nan"})
				r.Summary.Blocked, r.Summary.BlockedRequests, r.Summary.TargetRestarts = 2, 1, 3
				return r
			},
			opts: TextOptions{Coverage: true, Files: []string{"out/results.json", "out/junit.xml"}},
		},
		{
			name: "baseline",
			why:  "expected failures, unexpected passes and at most five unreached entries",
			res: func() *Result {
				r := withoutSkip(sample())
				b := &Baseline{Scenarios: []Expected{{ID: failingID}, {ID: passingID}},
					Cases: []Expected{{ID: failedCase}, {ID: "run_status/failed/extra_property"}}}
				for i := range 6 {
					b.Cases = append(b.Cases, Expected{ID: fmt.Sprintf("gone/%d", i)})
				}
				r.BaselineUnmatched = b.Apply(r)
				return r
			},
		},
		{
			name: "controls",
			why:  "the controls by state after the other counts: each violated one with its first failures, the IDs of those not exercised",
			res: func() *Result {
				r := controlSample()
				(&Baseline{Cases: []Expected{{ID: nanCaseID}}}).Apply(r)
				r.Controls = controlCatalogue().Evaluate(r)
				return r
			},
		},
		{
			name: "levels",
			why:  "a run that certifies safe: each level's counts, the controls at the other level and those whose state differs there",
			res:  levelledControlSample,
		},
		{
			name: "caps",
			why:  "three evidence first lines and ten failed cases per scenario at most",
			res: func() *Result {
				r := sample()
				sc := &r.Scenarios[1]
				sc.Evidence = nil
				for i := range 4 {
					sc.Evidence = append(sc.Evidence, Evidence{Kind: EvidenceMismatch, Message: fmt.Sprintf("finding %d\nsecond line", i)})
				}
				sc.Cases = nil
				for i := range 11 {
					id := fmt.Sprintf("run_status/failed/nan/f%d", i)
					sc.Cases = append(sc.Cases, Case{ID: id, Tool: "run_status", Operator: "nan", Status: Failed, Reproducer: Command("toolcert", "run", "--case", id)})
				}
				r.Tally()
				return r
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Text(&buf, tt.res(), tt.opts); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "text-"+tt.name+".txt")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update to create): %v", err)
			}
			if diff := cmp.Diff(string(want), buf.String()); diff != "" {
				t.Errorf("%s (%s) mismatch (-want +got):\n%s", golden, tt.why, diff)
			}
		})
	}
}

// TestTextWriteError: Text says when it could not write, and writes
// nothing before the whole summary is rendered.
func TestTextWriteError(t *testing.T) {
	w := &failWriter{}
	if err := Text(w, sample(), TextOptions{}); !errors.Is(err, errFailWriter) {
		t.Errorf("Text to a failing writer: %v, want its error", err)
	}
	if w.calls != 1 {
		t.Errorf("Text wrote %d times, want once", w.calls)
	}
}

var errFailWriter = errors.New("disk full")

// failWriter fails every write and counts them.
type failWriter struct{ calls int }

func (w *failWriter) Write([]byte) (int, error) {
	w.calls++
	return 0, errFailWriter
}
