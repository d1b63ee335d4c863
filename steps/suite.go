package steps

import (
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/toolcert/toolcert/corpus"
	"github.com/toolcert/toolcert/internal/harness"
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
	"github.com/toolcert/toolcert/reports"
	"github.com/toolcert/toolcert/targets"
)

// Suite is what every scenario of one run shares. It is read-only once the
// run starts, but for what it caches: compiled contracts and patterns, the
// corpus's decoded bindings and examples, and the baselines.
type Suite struct {
	Corpus  *corpus.Corpus
	Profile targets.Profile
	Seed    uint64
	Client  *targets.Client
	Lanes   harness.Lanes
	// Agent makes the agent's tool calls; nil is protocol v1 through
	// Client.
	Agent harness.Agent
	// Capabilities are what the target has beyond tool calls; a step that
	// needs one it lacks is not applicable.
	Capabilities targets.Capabilities
	// FirstTools are the tools an MCP server listed in the run's first
	// session, which every later session must list again.
	FirstTools []*mcp.Tool
	// FirstUpstream is the base URL of the mock upstream of the session
	// that listed FirstTools: a server that writes its upstream's address
	// into a tool's description writes another in every session, and the
	// comparison leaves that address out.
	FirstUpstream string
	// LimitsDeclared says the target's limits are declared: it speaks
	// protocol v1 (the harness gives it its limits), or the run has its
	// profile. Without, an answer past the default byte limit is judged at
	// level strict only (docs/protocol.md, "Levels").
	LimitsDeclared bool
	// Now is the clock scenarios render timestamps with; nil means time.Now.
	Now func() time.Time

	// UpstreamVersion, when set, limits generated variants to answers of
	// that upstream version.
	UpstreamVersion string
	// ReproduceFlags are the CLI flags that choose the target and corpus,
	// for the one-line reproducer of each generated case, quoted as
	// reports.Command quotes.
	ReproduceFlags string
	// Level is the level the run certifies ("" is reports.DefaultLevel):
	// a step that runs generated cases fails when one fails at it. Every
	// case is judged at both levels.
	Level reports.Level
	// Tools are the tool maps of the run's config for a protocol v1
	// target, whose volatile parts and comparisons apply to it too (an
	// MCP or HTTP agent carries its own).
	Tools map[string]targets.ToolMap
	// Warn prints a warning for the person running toolcert (standard
	// error); nil prints none. Each kind of warning is given once a run.
	Warn func(line string)

	warned    sync.Map // kind of warning -> struct{}
	mu        sync.Mutex
	contracts map[string]*judge.Schema
	decision  *judge.Schema
	patterns  map[string][]*regexp.Regexp
	tools     map[string]toolOrErr
	examples  map[string]casesOrErr
	baselines baselines
	caseTime  caseTimer
	// reproduceRest is the reproducer's words after the case's ID, quoted
	// once per run (reproducer).
	reproduceRest     string
	reproduceRestOnce sync.Once
}

// Record is what a finished scenario leaves for the runner.
type Record struct {
	Lane     int
	Evidence []reports.Evidence
	Requests int // requests the lane's upstream received
	// Exchanges are what the scenario programmed and called, one per agent
	// call (generated variants included): enough to send the same requests
	// again without steps.
	Exchanges []harness.Exchange
	// Cases are the generated variants the scenario ran.
	Cases []reports.Case
	// Saw and Upstream are what the agent saw of the scenario's last call
	// and the upstream requests of its own calls (reports.Scenario keeps
	// them as Saw and Requests when it failed).
	Saw      []reports.Part
	Upstream []reports.Request
	// TargetOutput is what the target printed during the scenario
	// (reports.Scenario keeps it when it failed).
	TargetOutput string
	// CaseStepError is the error of the step that failed because its
	// generated cases failed at the level the run certifies; "" when
	// none did.
	CaseStepError string
	// StrictStepErrors are the errors of the steps that failed on a rule
	// of protocol v1 beyond level safe (the run certifies strict);
	// StrictFailed is set when such a rule failed in a run that certifies
	// safe, where its step passed.
	StrictStepErrors []string
	StrictFailed     bool
	// MustNotReach is set when the scenario asserted that its calls (denied,
	// refused, expired or malformed) sent nothing upstream.
	MustNotReach bool
	// BlockedRequests are the upstream requests those calls made anyway.
	BlockedRequests int
}

// agent returns the suite's agent.
func (s *Suite) agent() harness.Agent {
	if s.Agent == nil {
		return harness.V1Agent{Client: s.Client}
	}
	return s.Agent
}

// toolMap returns the map of a corpus tool on an MCP server or an HTTP
// tool service.
func (s *Suite) toolMap(tool string) targets.ToolMap {
	switch a := s.Agent.(type) {
	case harness.MCPAgent:
		return a.Map(tool)
	case harness.HTTPAgent:
		return a.Map(tool)
	}
	m := s.Tools[tool]
	m.Name = tool
	return m
}

func (s *Suite) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// contract returns the compiled agent contract of tool, or the protocol's
// envelope schema when the corpus has none for it (an unknown tool).
func (s *Suite) contract(tool string) (*judge.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.contracts[tool]; ok {
		return c, nil
	}
	raw, err := s.Corpus.Contract(tool)
	if err != nil {
		raw = protocol.EnvelopeSchema()
	}
	c, err := judge.Compile(tool+"/contract.json", raw)
	if err != nil {
		return nil, fmt.Errorf("compile contract of %q: %w", tool, err)
	}
	if s.contracts == nil {
		s.contracts = map[string]*judge.Schema{}
	}
	s.contracts[tool] = c
	return c, nil
}

// tool returns the corpus's binding of tool, decoded once per run: the
// corpus does not change while it runs.
func (s *Suite) tool(name string) (*corpus.Tool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.tools[name]; ok {
		return e.tool, e.err
	}
	t, err := s.Corpus.Tool(name)
	if s.tools == nil {
		s.tools = map[string]toolOrErr{}
	}
	s.tools[name] = toolOrErr{t, err}
	return t, err
}

// cases returns the corpus's examples of tool, decoded once per run.
func (s *Suite) cases(name string) (*corpus.Cases, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.examples[name]; ok {
		return e.cases, e.err
	}
	cs, err := s.Corpus.Cases(name)
	if s.examples == nil {
		s.examples = map[string]casesOrErr{}
	}
	s.examples[name] = casesOrErr{cs, err}
	return cs, err
}

// casesOrErr is a tool's examples as Corpus.Cases returned them.
type casesOrErr struct {
	cases *corpus.Cases
	err   error
}

// warnOnce gives the warning line through Warn, once per run for kind.
func (s *Suite) warnOnce(kind, line string) {
	if s.Warn == nil {
		return
	}
	if _, done := s.warned.LoadOrStore(kind, struct{}{}); !done {
		s.Warn(line)
	}
}
