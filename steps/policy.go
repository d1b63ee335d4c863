package steps

import (
	"github.com/toolcert/toolcert/internal/judge"
	"github.com/toolcert/toolcert/protocol"
)

// decisionSchema returns the protocol's schema of the decision record,
// compiled once.
func (s *Suite) decisionSchema() (*judge.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.decision != nil {
		return s.decision, nil
	}
	sch, err := judge.Compile("decision.json", protocol.DecisionSchema())
	if err != nil {
		return nil, err
	}
	s.decision = sch
	return sch, nil
}
