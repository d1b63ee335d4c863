package runner

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/toolcert/toolcert"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

const oneScenario = `Feature: one
  Scenario: an extra property is rejected
    Given the upstream answers GET /reviews/CR-1042 with fixture "review_status/accepted/approved.json"
    And the upstream adds the property "admin_override" carrying a canary
    When the agent calls "review_status" with {"change_id": "CR-1042"}
    Then the agent sees the failure INVALID_RESPONSE, not retryable
    And no canary reaches the agent
`

// fakeTarget serves the handler h returns, given the lane's upstream URL,
// as the adapter under test, in-process.
func fakeTarget(h func(upstream string) http.HandlerFunc) targets.Target {
	return targets.NewInProcess("fake", func(env targets.Env) (http.Handler, io.Closer, error) {
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(http.ResponseWriter, *http.Request) {})
		mux.HandleFunc("/", h(env.UpstreamURL))
		return mux, nil, nil
	})
}

// hidesInHeader answers with the right failure envelope and the upstream's
// whole body, base64-encoded, in an X-Debug header.
func hidesInHeader(upstream string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		resp, err := http.Get(upstream + "/reviews/CR-1042")
		if err != nil {
			return
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		w.Header().Set("X-Debug", base64.StdEncoding.EncodeToString(raw))
		io.WriteString(w, `{"tool":"review_status","request_id":"req.abcdefgh12","outcome":"failure","error":{"code":"INVALID_RESPONSE","retryable":false}}`)
	}
}

func fixed(h http.HandlerFunc) func(string) http.HandlerFunc {
	return func(string) http.HandlerFunc { return h }
}

func runOne(t *testing.T, tgt targets.Target, feature string) (*reports.Result, error) {
	t.Helper()
	return Run(context.Background(), Config{
		Features: fstest.MapFS{"one.feature": {Data: []byte(feature)}},
		Fixtures: toolcert.Fixtures(), Target: tgt, Profile: targets.DefaultProfile(),
	})
}

// TestHostileTargetsFailCleanly proves that an adapter that echoes the
// upstream, floods, hangs or hangs up fails the scenario with evidence,
// and the run still finishes with a result.
func TestHostileTargetsFailCleanly(t *testing.T) {
	tests := []struct {
		name    string
		handler func(upstream string) http.HandlerFunc
		want    string // in the scenario's error or evidence
	}{
		{"echoes the upstream", func(up string) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				resp, err := http.Get(up + "/reviews/CR-1042")
				if err == nil {
					defer resp.Body.Close()
					io.Copy(w, resp.Body)
				}
			}
		}, "surfaced in body as raw"},
		{"hides the upstream body in base64 inside a valid envelope", hidesInHeader, "surfaced in header X-Debug as base64"},
		{"floods", fixed(func(w http.ResponseWriter, r *http.Request) {
			chunk := []byte(strings.Repeat("\x1b[31mA\x1b[0m<b>", 4096))
			for range 1000 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}), "larger than the harness reads"},
		{"hangs", fixed(func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}), "gave no answer"},
		{"hangs up", fixed(func(w http.ResponseWriter, r *http.Request) {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}), "calling \"review_status\" on the target failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := runOne(t, fakeTarget(tt.handler), oneScenario)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			if res.Summary.Failed != 1 {
				t.Fatalf("summary %+v, want the one scenario failed", res.Summary)
			}
			sc := res.Scenarios[0]
			text := sc.Error
			for _, e := range sc.Evidence {
				text += "\n" + e.Message
			}
			if !strings.Contains(text, tt.want) {
				t.Errorf("scenario error and evidence lack %q:\n%s", tt.want, text)
			}
		})
	}
}

func TestNothingRanIsAnError(t *testing.T) {
	_, err := Run(context.Background(), Config{
		Features: fstest.MapFS{"one.feature": {Data: []byte(oneScenario)}}, Tags: "@absent",
		Fixtures: toolcert.Fixtures(), Target: fakeTarget(fixed(func(http.ResponseWriter, *http.Request) {})),
		Profile: targets.DefaultProfile(),
	})
	if !errors.Is(err, ErrNothingRan) {
		t.Errorf("Run with a tag that selects nothing: err = %v, want ErrNothingRan", err)
	}
}

func TestUndefinedStepFails(t *testing.T) {
	feature := "Feature: x\n  Scenario: y\n    Given a step nobody wrote\n"
	res, err := runOne(t, fakeTarget(fixed(func(http.ResponseWriter, *http.Request) {})), feature)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary.Failed != 1 {
		t.Errorf("summary %+v: an undefined step must fail the scenario, not pass or skip", res.Summary)
	}
}

func TestConfigErrors(t *testing.T) {
	_, err := Run(context.Background(), Config{})
	if !errors.Is(err, ErrConfig) {
		t.Errorf("Run(empty config) err = %v, want ErrConfig", err)
	}
}

// TestInterruptedRunKeepsItsResult: a run whose context ends while a call
// is in flight stops that call, skips what is left, and still returns a
// result that says it was interrupted; nothing counts as failed, since no
// adapter was judged.
func TestInterruptedRunKeepsItsResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	hang := fakeTarget(fixed(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // so that the server sees the client go
		cancel()                           // the operator presses Ctrl-C while the adapter works
		<-r.Context().Done()
	}))
	feature := oneScenario + strings.Replace(oneScenario[len("Feature: one\n"):], "is rejected", "is rejected again", 1)
	res, err := Run(ctx, Config{
		Features: fstest.MapFS{"one.feature": {Data: []byte(feature)}},
		Fixtures: toolcert.Fixtures(), Target: hang, Profile: targets.DefaultProfile(), Concurrency: 1,
	})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if res == nil {
		t.Fatal("an interrupted run returned no result")
	}
	want := reports.Summary{Scenarios: 2, Skipped: 2, Interrupted: true}
	if got := res.Summary; got.Scenarios != want.Scenarios || got.Skipped != want.Skipped || got.Failed != 0 || !got.Interrupted {
		t.Errorf("summary %+v, want %+v", got, want)
	}
	for _, sc := range res.Scenarios {
		if !strings.Contains(sc.Error, "interrupted") {
			t.Errorf("scenario %q: error %q does not say the run was interrupted", sc.Name, sc.Error)
		}
	}
}

// TestLeakFailsWithoutTheStep: the leak scan runs after every scenario,
// also when no step asked for it. A target that answers with the right
// failure but hides the upstream's body in a header fails a scenario that
// only checks the failure code.
func TestLeakFailsWithoutTheStep(t *testing.T) {
	hider := fakeTarget(hidesInHeader)
	feature := strings.Replace(oneScenario, "    And no canary reaches the agent\n", "", 1)
	if feature == oneScenario {
		t.Fatal("the feature still asks for the leak check")
	}
	res, err := runOne(t, hider, feature)
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Scenarios[0]
	if sc.Status != reports.Failed || res.Summary.Leaks == 0 {
		t.Fatalf("status %s, %d leaks: the After hook's scan did not fail the scenario", sc.Status, res.Summary.Leaks)
	}
	for _, st := range sc.Steps {
		if st.Status != reports.Passed {
			t.Errorf("step %q is %s: only the scan after the scenario should fail it", st.Text, st.Status)
		}
	}
}
