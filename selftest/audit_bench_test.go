package selftest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/toolcert/toolcert/adapters/reference"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/runner"
	"github.com/toolcert/toolcert/targets"
)

// BenchmarkAuditWait runs the same cases against the reference and against
// an adapter whose audit events the harness cannot find, one after the
// other, and reports both wall clocks and their ratio ("broken/ref"): the
// harness waits for a missing event per run, not per call, so the ratio
// stays small (docs/protocol.md, "The operator's side"). The broken
// adapters: ghost-ids answers with request ids no event has (its events
// name the real ones), silent writes no event to the log.
func BenchmarkAuditWait(b *testing.B) {
	sets := []struct {
		name  string
		run   func(testing.TB, targets.Target) *reports.Result
		cases func(*reports.Result) int
	}{
		{"variants-of-review_status", func(tb testing.TB, tgt targets.Target) *reports.Result {
			return variantsRun(tb, tgt, "review_status")
		}, func(r *reports.Result) int { return r.Summary.Cases }},
		{"builtin", func(tb testing.TB, tgt targets.Target) *reports.Result {
			return featuresRun(tb, tgt, "", "features")
		}, func(r *reports.Result) int { return r.Summary.Scenarios }},
	}
	broken := []struct {
		name   string
		target targets.Target
	}{{"ghost-ids", ghostIDsTarget()}, {"silent", silentTarget()}}
	for _, set := range sets {
		for _, bad := range broken {
			b.Run(set.name+"/"+bad.name, func(b *testing.B) {
				var ref, brk time.Duration
				cases := 0
				for b.Loop() {
					start := time.Now()
					res := set.run(b, reference.InProcess())
					ref += time.Since(start)
					if res.Summary.Failed != 0 || res.Summary.CasesFailed != 0 {
						b.Fatalf("the reference failed %d scenarios, %d cases", res.Summary.Failed, res.Summary.CasesFailed)
					}
					start = time.Now()
					res = set.run(b, bad.target)
					brk += time.Since(start)
					if res.Summary.Failed == 0 {
						b.Fatalf("%s passed", bad.name)
					}
					cases += set.cases(res)
				}
				n := float64(b.N)
				b.ReportMetric(ref.Seconds()/n, "ref-s/op")
				b.ReportMetric(brk.Seconds()/n, "broken-s/op")
				b.ReportMetric(brk.Seconds()/ref.Seconds(), "broken/ref")
				b.ReportMetric(float64(cases)/n, "cases/op")
			})
		}
	}
}

// variantsRun runs every generated variant of tool against tgt, as one
// scenario on runner's default lanes.
func variantsRun(tb testing.TB, tgt targets.Target, tool string) *reports.Result {
	tb.Helper()
	feature := fmt.Sprintf("Feature: variants\n  Scenario: every variant of %s\n    Then every generated variant of %q is handled as expected without leaking\n", tool, tool)
	res, err := runner.Run(context.Background(), runner.Config{Features: fstest.MapFS{"v.feature": {Data: []byte(feature)}}, Target: tgt})
	if err != nil {
		tb.Fatalf("run against %s: %v", tgt, err)
	}
	return res
}

// ghostIDsTarget is the reference in-process, whose answers carry request
// ids no audit event has.
func ghostIDsTarget() *targets.InProcess {
	return targets.NewInProcess("ghost-ids", func(env targets.Env) (http.Handler, io.Closer, error) {
		a, c, err := reference.Build(env)
		if err != nil {
			return nil, nil, err
		}
		return ghostIDs(a), c, nil
	})
}

// silentTarget is the reference in-process, writing its audit events
// elsewhere than the log the harness reads.
func silentTarget() *targets.InProcess {
	return targets.NewInProcess("silent", func(env targets.Env) (http.Handler, io.Closer, error) {
		env.AuditFile += ".elsewhere"
		a, c, err := reference.Build(env)
		if err != nil {
			return nil, nil, err
		}
		return a, c, nil
	})
}

// ghostIDs serves next's answers with their request_id replaced.
func ghostIDs(next http.Handler) http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		next.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		var env map[string]json.RawMessage
		if json.Unmarshal(body, &env) == nil && env["request_id"] != nil {
			env["request_id"] = json.RawMessage(fmt.Sprintf(`"req.ghost%08d"`, n.Add(1)))
			body, _ = json.Marshal(env)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}
