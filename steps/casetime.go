package steps

import (
	"sync/atomic"
	"time"

	"github.com/toolcert/toolcert/reports"
)

// caseTimer sums, over the lanes, the lane time of the generated cases'
// parts (reports.CaseTime): what the run's calls cost apart from the
// harness's own work. Lanes add to it at once.
type caseTimer struct {
	generate, baselines, calls, checks atomic.Int64
	used                               atomic.Bool
}

// since adds the time since start to part.
func (t *caseTimer) since(part *atomic.Int64, start time.Time) {
	t.used.Store(true)
	part.Add(int64(time.Since(start)))
}

// CaseTime returns how the run's generated cases spent their lane time,
// nil when no step of generated variants ran (one whose generation failed
// counts: its time is in Generate).
func (s *Suite) CaseTime() *reports.CaseTime {
	t := &s.caseTime
	if !t.used.Load() {
		return nil
	}
	return &reports.CaseTime{
		Generate:  reports.Duration(t.generate.Load()),
		Baselines: reports.Duration(t.baselines.Load()),
		Calls:     reports.Duration(t.calls.Load()),
		Checks:    reports.Duration(t.checks.Load()),
	}
}
