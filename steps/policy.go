package steps

import (
	"github.com/toolcert/toolcert/gate"
	"github.com/toolcert/toolcert/protocol"
)

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
