package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolcert/toolcert/canary"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/mocks"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/targets"
)

// ReplayConfig is one captured upstream response to serve through a target.
type ReplayConfig struct {
	Tool string
	Args []byte
	// Body is served byte for byte, but for {{...}} placeholders
	// ({{canary:NAME}} plants a canary the verdict looks for).
	Body   []byte
	Status int
	// Header lines to serve; values may hold placeholders too. Without a
	// Content-Type among them the body is served as application/json.
	Header []mocks.HeaderField
	Seed   uint64

	Target targets.Target
	// Profile is what the target declares; a Profile with no field set is
	// targets.DefaultProfile().
	Profile        targets.Profile
	UpstreamListen string
	AuditFile      string
}

// ReplayResult is what one replay shows: what the agent saw, what the
// adapter audited, and whether any planted canary or, for a rejected
// response, any string of the body reached the agent.
type ReplayResult struct {
	Agent AgentOutput       `json:"agent"`
	Audit []json.RawMessage `json:"audit"`
	// AuditError says why the audit log could not be read (a named pipe,
	// a line past 4 MiB, ...); "" when it was.
	AuditError string        `json:"audit_error,omitempty"`
	Requests   int           `json:"upstream_requests"`
	Served     string        `json:"served_sha256"`
	Leaks      []canary.Leak `json:"leaks"`
	Verdict    string        `json:"verdict"`
	Seed       uint64        `json:"seed"`
}

// AgentOutput is the agent-visible output in a printable form.
type AgentOutput struct {
	StatusLine string      `json:"status_line"`
	Header     http.Header `json:"headers"`
	Body       string      `json:"body,omitempty"`
	BodyBase64 []byte      `json:"body_base64,omitempty"`
	Error      string      `json:"error,omitempty"`
}

// Replay serves cfg.Body once through the target, with one lane, and
// returns what came out.
func Replay(ctx context.Context, cfg ReplayConfig) (*ReplayResult, error) {
	if cfg.Seed == 0 {
		cfg.Seed = randomSeed()
	}
	cfg.Profile = orDefault(cfg.Profile)
	dir, cleanup, err := workDir("")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	pool, err := harness.StartPool(ctx, harness.PoolConfig{
		Lanes: 1, Target: cfg.Target, Profile: cfg.Profile, UpstreamListen: cfg.UpstreamListen, AuditFile: cfg.AuditFile, Dir: dir,
	})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	defer pool.Close(context.WithoutCancel(ctx))
	lane := pool.Lanes()[0]
	if _, mcp := lane.Target.(targets.MCPInstance); mcp || isToolService(cfg.Target) {
		return nil, fmt.Errorf("%w: replay drives protocol v1 targets only; %s is not one (run a feature against it instead)", ErrConfig, cfg.Target)
	}
	set := canary.NewSet(cfg.Seed, "replay")
	resp, err := replayResponse(cfg, set)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	lane.Upstream.Fallback(resp)
	client := targets.NewClient(targets.WithTimeout(cfg.Profile.CallTimeout()))
	var (
		out     targets.Output
		callErr error
	)
	c, _ := lane.Call(ctx, cfg.Tool, cfg.Args, cfg.Profile.CallTimeout(), func(ctx context.Context, inst targets.Instance) (harness.Output, error) {
		out, callErr = client.Invoke(ctx, inst.URL(), cfg.Tool, cfg.Args, cfg.Profile.Token)
		return harness.HTTPOutput(out), callErr
	})
	res := &ReplayResult{Agent: printable(out), Seed: cfg.Seed}
	if callErr != nil {
		res.Agent.Error = callErr.Error()
	}
	journal := lane.Upstream.Journal()
	res.Requests = len(journal)
	if len(journal) > 0 {
		res.Served = journal[len(journal)-1].Served.BodySHA256
	}
	if id := requestID(c.Out.Result); lane.AuditFile != "" && id != "" {
		var auditErr error
		if res.Audit, auditErr = harness.AuditEvents(lane.AuditFile, 0, id); auditErr != nil {
			res.AuditError = auditErr.Error()
		}
	}
	res.Leaks = canary.Scan(c.Out.Parts, append(set.All(), bodyStrings(cfg.Body, c.Out.Result)...))
	if res.Leaks == nil {
		res.Leaks = []canary.Leak{}
	}
	res.Verdict = "no leak"
	if len(res.Leaks) > 0 {
		res.Verdict = "leak"
	}
	return res, nil
}

func replayResponse(cfg ReplayConfig, set *canary.Set) (mocks.Response, error) {
	vars := harness.Vars(time.Now(), cfg.Profile, set)
	body, err := corpus.Render(cfg.Body, "the replayed body", vars)
	if err != nil {
		return mocks.Response{}, err
	}
	r := mocks.Response{Status: cfg.Status, Body: body}
	typed := false
	for _, h := range cfg.Header {
		typed = typed || strings.EqualFold(h.Name, "Content-Type")
		v, err := corpus.Expand(h.Value, "header "+h.Name, vars)
		if err != nil {
			return r, err
		}
		r.Header = append(r.Header, mocks.HeaderField{Name: h.Name, Value: v})
	}
	if !typed {
		r.Header = append(r.Header, mocks.HeaderField{Name: "Content-Type", Value: protocol.ContentTypeJSON})
	}
	return r, nil
}

// bodyStrings returns, when the agent's result is a failure, every string
// of 8 or more characters in the served JSON body as a canary: a rejected
// response may not reach the agent in any part.
func bodyStrings(served, result []byte) []canary.Canary {
	v, err := judge.ParseJSON(result, judge.Limits{MaxBytes: 1 << 20, MaxDepth: 64})
	if m, ok := v.(map[string]any); err != nil || !ok || m["outcome"] != protocol.OutcomeFailure {
		return nil
	}
	var out []canary.Canary
	dec := json.NewDecoder(bytes.NewReader(served))
	for {
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		if s, ok := tok.(string); ok && len(s) >= 8 {
			out = append(out, canary.Canary{Token: s, Planted: "string of the rejected body"})
		}
	}
}

func requestID(body []byte) string {
	var v struct {
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(body, &v)
	return v.RequestID
}

func printable(out targets.Output) AgentOutput {
	a := AgentOutput{StatusLine: out.StatusLine, Header: out.Header}
	if utf8.Valid(out.Body) {
		a.Body = string(out.Body)
	} else {
		a.BodyBase64 = out.Body
	}
	return a
}

// isToolService reports whether t is an HTTP tool service, which replay
// cannot call by protocol v1.
func isToolService(t targets.Target) bool {
	_, ok := t.(*targets.HTTPService)
	return ok
}
