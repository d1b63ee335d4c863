package steps

import (
	"fmt"

	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

// PolicyFile is the file of the corpus, beside the tool folders, with the
// policy the harness hands every target it starts (protocol.VarPolicyFile):
// sessions, grants, allowlist, approvals.
const PolicyFile = "policy.json"

// policy returns the corpus's policy, parsed once.
func (s *Suite) policy() (*gate.Policy, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pol != nil {
		return s.pol, nil
	}
	raw, err := s.Corpus.Fixture(PolicyFile)
	if err != nil {
		return nil, fmt.Errorf("the corpus has no policy: %w", err)
	}
	p, err := gate.ParsePolicy(raw)
	if err != nil {
		return nil, fmt.Errorf("the corpus's %s: %w", PolicyFile, err)
	}
	s.pol = p
	return p, nil
}

// decisionSchema returns the protocol's schema of the decision record,
// compiled once.
func (s *Suite) decisionSchema() (*gate.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.decision != nil {
		return s.decision, nil
	}
	sch, err := gate.Compile("decision.json", protocol.DecisionSchema())
	if err != nil {
		return nil, err
	}
	s.decision = sch
	return sch, nil
}
