package steps

import (
	"fmt"

	"github.com/toolcert/toolcert/gate"
)

// Files of the corpus, beside the tool folders, that the call side uses.
const (
	// PolicyFile is the policy the harness hands every target it starts
	// (TOOLCERT_POLICY_FILE): sessions, grants, allowlist, approvals.
	PolicyFile = "policy.json"
	// decisionFile is the schema of the decision record (A3).
	decisionFile = "decision.json"
)

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

// decisionSchema returns the corpus's schema of the decision record.
func (s *Suite) decisionSchema() (*gate.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.decision != nil {
		return s.decision, nil
	}
	raw, err := s.Corpus.Fixture(decisionFile)
	if err != nil {
		return nil, fmt.Errorf("the corpus has no decision schema: %w", err)
	}
	sch, err := gate.Compile(decisionFile, raw)
	if err != nil {
		return nil, err
	}
	s.decision = sch
	return sch, nil
}
